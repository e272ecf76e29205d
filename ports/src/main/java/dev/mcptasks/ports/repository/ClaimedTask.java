package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;

/** A claim just taken, with the row as it stands right after the claim. */
public record ClaimedTask(Claim claim, TaskRecord task) {}
