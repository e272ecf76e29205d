package dev.mcptasks.testkit.notification;

import dev.mcptasks.ports.notification.DeliveryResult;
import dev.mcptasks.ports.notification.Notification;
import dev.mcptasks.ports.notification.NotificationSink;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link NotificationSink} that records every notification and answers from a script: the scripted results in
 * order, {@link DeliveryResult.Delivered} once the script is empty, and a future that never completes for a delivery
 * scripted to hang (a sink that never answers). Thread-safe; {@link #next} waits for deliveries in arrival order.
 */
public final class ScriptedSink implements NotificationSink {
    /** How long {@link #next()} waits for a delivery. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final Object HANG = new Object();
    private final Queue<Object> script = new ArrayDeque<>();
    private final List<Notification> received = new ArrayList<>();
    private int taken;

    /** The next unscripted delivery answers {@code result}. */
    public synchronized ScriptedSink script(DeliveryResult result) {
        script.add(result);
        return this;
    }

    /** The next unscripted delivery never answers. */
    public synchronized ScriptedSink hangNext() {
        script.add(HANG);
        return this;
    }

    @Override
    public synchronized CompletableFuture<DeliveryResult> deliver(Notification notification) {
        received.add(notification);
        notifyAll();
        Object result = script.poll();
        if (result == HANG) {
            return new CompletableFuture<>();
        }
        return CompletableFuture.completedFuture(result == null ? new DeliveryResult.Delivered()
                : (DeliveryResult) result);
    }

    /** The next delivery not yet taken by this method, waiting up to {@link #TIMEOUT} for it. */
    public Notification next() throws InterruptedException {
        return next(TIMEOUT);
    }

    /** The next delivery not yet taken by this method, waiting up to {@code timeout} for it. */
    public synchronized Notification next(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (received.size() <= taken) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no notification delivered within " + timeout);
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return received.get(taken++);
    }

    /** How many deliveries were made, whatever they were answered. */
    public synchronized int count() {
        return received.size();
    }

    /** Every delivery so far, in arrival order. */
    public synchronized List<Notification> received() {
        return List.copyOf(received);
    }
}
