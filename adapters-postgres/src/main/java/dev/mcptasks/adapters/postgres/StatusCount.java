package dev.mcptasks.adapters.postgres;

/** One row of the per-status count. */
final class StatusCount {
    String status;
    long count;
}
