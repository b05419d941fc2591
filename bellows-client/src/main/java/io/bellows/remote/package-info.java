/**
 * The Bellows API over a server: {@link io.bellows.remote.RemoteEngine} implements the core's
 * {@code io.bellows.engine.Engine} over gRPC, so {@code io.bellows.client.Bellows.over(remote)}
 * is the public API, unchanged — code written against {@code Bellows} and {@code Table} runs
 * embedded or remote by changing how the connection is opened.
 *
 * <p>The {@code Engine} interface was narrow enough: every method maps to one call; the engine's
 * own types ({@code TableRef}, {@code ScanQuery}, {@code RowMutation}, {@code RowScanner}) travel
 * as they are. What does not travel: the read point of a {@code ScanQuery} (the server reads at
 * its own), and of {@code options()} only the knobs (the server's clock and event listeners stay
 * in the server). Gets go as unary calls, other scans as server streams.
 */
package io.bellows.remote;
