package dev.mcptasks.app.config;

/** The names of the submit, status and cancel tools of an {@code ordinary-tools} server. */
public record Toolset(String submit, String status, String cancel) {}
