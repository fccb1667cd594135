import { __registerErrorClass } from '../wasm/shardwise.js';
import { ShardwiseError } from './errors.js';

/** Runs once the wasm module is instantiated, in every host. */
export function setup() {
  __registerErrorClass(ShardwiseError);
}
