package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.ClaimPhase;

/** The phase-specific part of a control operation: which remote call to make and what to persist after it. */
interface PhaseHandler {
    ClaimPhase phase();

    /** Runs once the claim was verified and extended; must end in {@link ClaimContext#finish} on every path. */
    void run(ClaimContext context);
}
