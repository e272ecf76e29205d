package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.DeliveryTake;

/**
 * Where {@link ResultWrites} hands the delivery a result write took ({@link DeliveryTake}): the notify phase. A take
 * needs a delivery slot, reserved before the write is sent; the write keeps its take only when one was free.
 */
interface DeliveryHandover {
    /** Reserves a delivery slot for one take; false when none is free. */
    boolean reserveSlot();

    /** Gives back a reserved slot: its write was refused or failed, so it took nothing. */
    void releaseSlot();

    /** The write of {@code id} committed, having taken the delivery of {@code event} with {@code take}: send it. */
    void handOver(TaskId id, DeliveryTake take, AttentionEvent event);
}
