package dev.mcptasks.ports;

import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;

/** Identifiers and tokens: the model never calls a random generator itself. */
public interface IdGenerator {
    /** A new task id; ids sort by creation time, so listing by id is listing by age. */
    TaskId newTaskId();

    /** A fresh, unguessable claim token (a new one for every claim, also when the same worker reclaims). */
    ClaimToken newClaimToken();
}
