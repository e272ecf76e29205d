package dev.mcptasks.adapters.httpsupport;

/**
 * One dispatched server-sent event.
 *
 * @param id the id this event itself carried, or null (the stream's last event id lives in the parser)
 * @param type the {@code event:} field, {@value #MESSAGE} when the stream named none
 * @param data the data lines joined by {@code \n}; never empty (empty-data events are not dispatched)
 */
public record SseEvent(String id, String type, String data) {
    /** The type of an event that names none. */
    public static final String MESSAGE = "message";
}
