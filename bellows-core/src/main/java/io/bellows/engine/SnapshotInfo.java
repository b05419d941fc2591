package io.bellows.engine;

/**
 * A snapshot of a table: its name, the table it was taken of (as named then), and when it was
 * taken (the engine clock's milliseconds).
 */
public record SnapshotInfo(String name, String table, long createdMillis) {}
