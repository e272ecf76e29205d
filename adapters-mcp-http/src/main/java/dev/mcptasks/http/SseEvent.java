package dev.mcptasks.http;

/**
 * One dispatched server-sent event.
 *
 * @param id the id this event itself carried, or null (the stream's last event id lives in the parser)
 * @param type the {@code event:} field, or null for the default {@code message}
 * @param data the data lines joined by {@code \n}; never empty (empty-data events are not dispatched)
 */
record SseEvent(String id, String type, String data) {}
