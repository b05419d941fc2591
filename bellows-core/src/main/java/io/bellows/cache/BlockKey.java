package io.bellows.cache;

/**
 * Names one block of one sorted file: the engine-wide file number and the block's offset in the
 * file. A cache belongs to one engine instance, within which a file number is never handed out
 * twice and a file's bytes never change, so the key names the same bytes for the cache's whole
 * life (a split's hard links share the number and the bytes). Immutable.
 */
public record BlockKey(long file, long offset) {}
