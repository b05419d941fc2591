package io.bellows.server;

/** The server could not start; the message says why, for a person. */
public class ServerStartException extends RuntimeException {
  public ServerStartException(String message) {
    super(message);
  }

  public ServerStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
