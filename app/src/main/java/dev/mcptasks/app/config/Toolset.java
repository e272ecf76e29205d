package dev.mcptasks.app.config;

/**
 * The names of the submit, status and cancel tools of an {@code ordinary-tools} server; {@code cancel} is null when
 * the server has no cancel tool (a cancel request is then not sent, and the task is tracked to its real end).
 */
public record Toolset(String submit, String status, String cancel) {}
