export interface CompressOptions {
  /** 0 (fastest) to 11 (smallest). Default 9, the service's stated setting. */
  quality?: number;
  /** Window size, log2 bytes, 10 to 24. Default 22. */
  lgwin?: number;
}

export interface DecompressOptions {
  /**
   * Decoding stops with a `LIMIT_EXCEEDED` ShardwiseError past this many output bytes.
   * Default 1 GiB.
   */
  maxOutputBytes?: number;
}

/** Brotli-compresses bytes, or a string as UTF-8. Throws `INVALID_INPUT` for bad options. */
export declare function compress(data: Uint8Array | string, opts?: CompressOptions): Uint8Array;

/**
 * Decompresses a complete Brotli stream. Corrupt or truncated input throws `BROTLI_CORRUPT`,
 * output past `maxOutputBytes` throws `LIMIT_EXCEEDED`.
 */
export declare function decompress(data: Uint8Array, opts?: DecompressOptions): Uint8Array;

/** Streaming Brotli encoder: the concatenated output equals `compress` of the whole input. */
export declare class Compressor {
  constructor(opts?: CompressOptions);
  /** Feeds a chunk; returns the compressed bytes ready so far (often empty). */
  push(chunk: Uint8Array | string): Uint8Array;
  /** Ends the stream and returns the remaining bytes. */
  finish(): Uint8Array;
  /** Frees the wasm memory now instead of at garbage collection. */
  free(): void;
}

/** Streaming Brotli decoder with an output limit. */
export declare class Decompressor {
  constructor(opts?: DecompressOptions);
  /** Feeds compressed bytes; returns the bytes decoded from them. */
  push(chunk: Uint8Array): Uint8Array;
  /** Checks the stream is complete: a truncated stream throws `BROTLI_CORRUPT`. */
  finish(): Uint8Array;
  free(): void;
}
