package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.notification.DeliveryResult;

/**
 * Observes the runtime's per-claim milestones, for metrics and for tests that must await an event instead of
 * sleeping. Callbacks run on runtime threads and must return quickly.
 */
public interface RuntimeListener {
    RuntimeListener NONE = new RuntimeListener() {};

    /** A renewal attempt of the claim on {@code task} was decided (including the verification before the call). */
    default void renewalDecided(TaskId task, RenewalOutcome outcome) {}

    /** The claim on {@code task} was lost or given up; the local call was asked to stop. */
    default void ownershipLost(TaskId task, String cause) {}

    /** The operation on {@code task} wrote its last persistence write (or released its claim). */
    default void operationFinished(TaskId task) {}

    /** The operation outlived its drain bound; its cleanup continues in the background. */
    default void movedToBackground(TaskId task) {}

    /**
     * The last write of the claim on {@code task} failed (the store threw); it is tried again after {@code delay}
     * while the claim's lease stays confirmed.
     */
    default void finalWriteRetry(TaskId task, java.time.Duration delay) {}

    /** Every child of the operation (remote call, renewal) settled; its capacity slot is free again. */
    default void operationSettled(TaskId task) {}

    /** The result of a notification delivery for {@code task} was recorded (or refused by its fence). */
    default void notificationRecorded(TaskId task, DeliveryResult result) {}

    /**
     * A write that changed what a client reads of {@code task} (status, result, progress message) was committed.
     * Called on the committing thread: a listener hands over and returns at once.
     */
    default void taskChanged(TaskId task) {}

    /**
     * A direct call of {@code task} reported progress, as the server sent it, before it is stored (the store keeps
     * at most one progress message a second). Called on a transport thread: a listener hands over and returns at
     * once.
     */
    default void callProgress(TaskId task, CallProgress progress) {}

    /** One tick (all phases) finished. */
    default void tickFinished() {}
}
