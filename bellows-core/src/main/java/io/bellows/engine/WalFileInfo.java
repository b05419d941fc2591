package io.bellows.engine;

/** A WAL file the engine keeps: its name in the WAL directory and its length in bytes. */
public record WalFileInfo(String name, long bytes) {}
