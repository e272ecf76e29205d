package dev.mcptasks.ports.transport;

/**
 * An inbound message over the transport's cap ({@link Kind#MESSAGE_TOO_LARGE}): it was discarded, and reading it
 * again will not make it smaller. Carries its size, the cap, and the first and last bytes of the message (as text,
 * possibly cut inside a character) so that the session can tell which request the message answered.
 */
public final class McpMessageTooLargeException extends McpTransportException {
    private final long size;
    private final boolean sizeIsLowerBound;
    private final int cap;
    private final String head;
    private final String tail;

    /**
     * @param what what carried it, e.g. "server 'x' wrote a line"
     * @param size its size in bytes, or how much of it was seen ({@code sizeIsLowerBound})
     * @param head its first bytes, or "" when unknown
     * @param tail its last bytes, or "" when unknown
     */
    public McpMessageTooLargeException(String what, long size, boolean sizeIsLowerBound, int cap, String head,
            String tail) {
        super(Kind.MESSAGE_TOO_LARGE, what + " of " + (sizeIsLowerBound ? "at least " : "") + size
                + " bytes, over the transport's message cap of " + cap + " bytes; it was discarded");
        this.size = size;
        this.sizeIsLowerBound = sizeIsLowerBound;
        this.cap = cap;
        this.head = head == null ? "" : head;
        this.tail = tail == null ? "" : tail;
    }

    public long size() {
        return size;
    }

    public boolean sizeIsLowerBound() {
        return sizeIsLowerBound;
    }

    public int cap() {
        return cap;
    }

    public String head() {
        return head;
    }

    public String tail() {
        return tail;
    }
}
