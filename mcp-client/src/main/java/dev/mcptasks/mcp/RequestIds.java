package dev.mcptasks.mcp;

import dev.mcptasks.domain.Base32;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The JSON-RPC request ids and progress tokens this process sends. MCP forbids reusing a request id within a
 * session, and a session is shared: a worker that takes over a task resumes the upstream session its creator opened,
 * from another process or another session object of this one. Servers such as the TypeScript SDK's route an answer
 * by its request id within the session, so two requests in flight with one id get each other's answers. Ids are
 * therefore strings made of a random prefix drawn once per process (80 bits: two processes never draw the same) and
 * a counter shared by every session of the process; no other process and no other object here can send the same.
 */
final class RequestIds {
    private static final String PROCESS_PREFIX = randomPrefix(new SecureRandom());
    private static final AtomicLong COUNTER = new AtomicLong();

    private RequestIds() {}

    /** The next request id of this process: {@code <prefix>-<n>}, never sent before by anyone. */
    static String next() {
        return PROCESS_PREFIX + "-" + COUNTER.incrementAndGet();
    }

    /** The next progress token of this process, unique across processes like the ids. */
    static String nextProgressToken() {
        return "mcp-tasks-" + next();
    }

    /** This process's prefix (tests). */
    static String prefix() {
        return PROCESS_PREFIX;
    }

    static String randomPrefix(SecureRandom random) {
        byte[] bits = new byte[10];
        random.nextBytes(bits);
        return Base32.encode(bits);
    }
}
