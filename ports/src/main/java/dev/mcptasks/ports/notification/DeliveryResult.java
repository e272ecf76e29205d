package dev.mcptasks.ports.notification;

/** How a delivery attempt ended. */
public sealed interface DeliveryResult {
    /** 2xx: done. */
    record Delivered() implements DeliveryResult {}

    /** 409: the receiver is busy with this key; retried without counting. */
    record Busy(String detail) implements DeliveryResult {}

    /** 404/410: nobody will take it; dead-letter this version. */
    record Gone(String detail) implements DeliveryResult {}

    /** Anything else: a counted failure, retried with backoff. */
    record Failed(String detail) implements DeliveryResult {}
}
