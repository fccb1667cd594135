// The page's side of the worker (worker.mjs): requests go out as protocol.mjs says, replies come
// back to one handler per type.
import { TO_WORKER, FROM_WORKER, message, dispatcher } from './protocol.mjs';

/**
 * Starts the worker. Nothing is received until `listen` is called (and nothing is asked before:
 * the sections that ask are the ones that handle the replies).
 */
export function createWorkerClient() {
  const worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' });
  return {
    /**
     * Sends a TO_WORKER message.
     * @param {keyof typeof TO_WORKER} type
     * @param {Record<string, unknown>} [fields]
     * @param {Transferable[]} [transfer]
     */
    send(type, fields, transfer = []) {
      worker.postMessage(message(TO_WORKER, type, fields), transfer);
    },
    /**
     * @param {Record<keyof typeof FROM_WORKER, (data: any) => void>} handlers one per reply type
     * @param {(message: string) => void} failed the worker could not start, or threw
     */
    listen(handlers, failed) {
      const dispatch = dispatcher(FROM_WORKER, handlers);
      worker.onmessage = ({ data }) => dispatch(data);
      worker.onerror = (e) => failed(e.message || 'the preview worker failed to start');
    },
  };
}
