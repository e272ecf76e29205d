package dev.mcptasks.reference;

/**
 * One {@code notifications/cancelled} the server received.
 *
 * @param sessionId the client session it came on
 * @param requestId the id of the request it cancels, as text, or null when it named none
 * @param reason the client's reason, or null
 */
public record ReceivedCancellation(String sessionId, String requestId, String reason) {}
