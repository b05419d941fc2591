package io.bellows.hbase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Table;

/**
 * Buffers mutations and writes them as one batch when their heap size reaches the write buffer size,
 * on {@link #flush()} and on {@link #close()}. Failed mutations go to the exception listener if one is
 * set (HBase's contract), else the flush throws: a {@link RetriesExhaustedWithDetailsException}
 * naming each failed row with HBase's exception for it (the table's batch gives it so). Thread-safe
 * (one lock), as HBase's is.
 */
final class BellowsBufferedMutator implements BufferedMutator {
  /** HBase's default write buffer: {@code hbase.client.write.buffer}, 2 MiB. */
  static final long DEFAULT_WRITE_BUFFER = 2L * 1024 * 1024;

  private final Table table;
  private final Configuration conf;
  private final long writeBufferSize;
  private final ExceptionListener listener;
  private final List<Mutation> buffer = new ArrayList<>();
  private long buffered;
  private boolean closed;

  BellowsBufferedMutator(Table table, Configuration conf, BufferedMutatorParams params) {
    this.table = table;
    this.conf = conf;
    long size = params.getWriteBufferSize();
    this.writeBufferSize = size > 0 ? size : conf.getLong("hbase.client.write.buffer", DEFAULT_WRITE_BUFFER);
    this.listener = params.getListener();
  }

  @Override
  public TableName getName() {
    return table.getName();
  }

  @Override
  public Configuration getConfiguration() {
    return conf;
  }

  @Override
  public synchronized void mutate(Mutation m) throws IOException {
    mutate(List.of(m));
  }

  @Override
  public synchronized void mutate(List<? extends Mutation> ms) throws IOException {
    if (closed) {
      throw new IllegalStateException("the buffered mutator is closed");
    }
    for (Mutation m : ms) {
      buffer.add(m);
      buffered += m.heapSize();
    }
    if (buffered >= writeBufferSize) {
      flush();
    }
  }

  @Override
  public synchronized void flush() throws IOException {
    if (buffer.isEmpty()) {
      return;
    }
    List<Mutation> batch = new ArrayList<>(buffer);
    buffer.clear();
    buffered = 0;
    try {
      table.batch(batch, new Object[batch.size()]);
    } catch (RetriesExhaustedWithDetailsException e) {
      if (listener == null) {
        throw e;
      }
      listener.onException(e, this);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while flushing");
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (!closed) {
      flush();
      closed = true;
    }
  }

  @Override
  public long getWriteBufferSize() {
    return writeBufferSize;
  }
}
