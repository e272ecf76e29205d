package dev.mcptasks.ports.trace;

/** What a span stands for in its trace, as OpenTelemetry's span kinds say it. */
public enum SpanRole {
    /** Work inside the process (the result write). */
    INTERNAL,
    /** Handing work to a later consumer (a submit stores a task a worker drives later). */
    PRODUCER,
    /** Taking up handed-over work (a worker's claim of a stored task). */
    CONSUMER,
    /** A request to another service (an upstream MCP request). */
    CLIENT
}
