package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.ClaimPhase;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/** The scans of one pass of the control loop, in the order a pass runs them: the three control phases, then notify. */
enum Scan {
    CANCEL(ClaimPhase.CANCEL),
    SUBMIT(ClaimPhase.SUBMIT),
    POLL(ClaimPhase.POLL),
    /** The outbox: deliveries have slots of their own. */
    NOTIFY(null);

    /** A whole tick: every scan. */
    static final Set<Scan> ALL = Collections.unmodifiableSet(EnumSet.allOf(Scan.class));
    /** The scans that share the control-call slots. */
    static final Set<Scan> CONTROL = Collections.unmodifiableSet(EnumSet.of(CANCEL, SUBMIT, POLL));

    private final ClaimPhase phase;

    Scan(ClaimPhase phase) {
        this.phase = phase;
    }

    /** The name in log lines: the phase's wire name, or {@code notify}. */
    String label() {
        return phase == null ? "notify" : phase.wireName();
    }

    /** The claim phase of a control scan; null for {@link #NOTIFY}. */
    ClaimPhase phase() {
        return phase;
    }
}
