/**
 * The Bellows server: one engine served over gRPC, with the wire contract of module
 * bellows-protocol (docs/PROTOCOL.md) and the operations guide docs/SERVER.md.
 *
 * <h2>Design</h2>
 *
 * <ul>
 *   <li><b>One engine call per remote call.</b> The services ({@code AdminService}, {@code
 *       DataService}) translate and delegate; the server holds no data of its own, only table
 *       refs by id and open scans. So the remote API has the embedded one's semantics, which the
 *       client's comparison test checks call by call.
 *   <li><b>gRPC rather than REST or a custom protocol.</b> HTTP/2 gives multiplexing (one
 *       connection per client process), per-stream flow control (what bounds a scan) and
 *       deadlines/cancellation on the wire; protobuf gives a contract other languages can generate
 *       clients from. The cost, a dependency on grpc-java and protobuf, stays out of bellows-core.
 *   <li><b>Scans pull, not push.</b> {@code ScanCall} reads only while the call is ready, and
 *       returns its thread otherwise: rows in flight per scan ≈ the client's flow-control window
 *       (1 MiB by default) + one message (≤ ~1 MiB) + gRPC's on-ready threshold (32 KiB). At
 *       {@code max.calls} = 1024 open scans that is about 2 GiB at worst — the reason for the
 *       admission limit, which also bounds threads waiting on back-pressure.
 *   <li><b>Refuse early, apply nothing.</b> Authentication, roles and admission control run
 *       before the engine is touched and say so ({@code bellows-applied: false}), which is what
 *       lets clients retry writes safely. A write that fails after it reached the engine is never
 *       marked so.
 *   <li><b>No global state.</b> Each server has its own Prometheus registry, executor and
 *       interceptors; several servers live in one JVM (the tests start many).
 * </ul>
 *
 * <p>Rejected: a thread per scan that blocks on the transport (threads grow with slow clients);
 * server-side scanner leases as in HBase's RPC (a stream already has a lifetime: cancellation and
 * deadlines end it); keeping tokens in plain text (the config holds SHA-256 hashes).
 */
package io.bellows.server;
