package dev.mcptasks.ports.notification;

import dev.mcptasks.domain.TaskId;

/** One delivery attempt of one event version. */
public record Notification(TaskId taskId, long version, int attempt, String idempotencyKey, String eventJson) {}
