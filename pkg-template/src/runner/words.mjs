// Counts in the lines the runners and the CLI print: "1 test", "2 tests".

/** `plural(1, 'test')` -> "1 test", `plural(2, 'test')` -> "2 tests". */
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
