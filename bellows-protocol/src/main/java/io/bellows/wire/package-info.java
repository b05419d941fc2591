/**
 * The engine's objects and exceptions in their wire form (bellows.proto), both ways, for the
 * server and the Java client: {@link io.bellows.wire.Wire} for values, {@link
 * io.bellows.wire.WireErrors} for errors (status code, kind, retry hint, applied-or-not).
 */
package io.bellows.wire;
