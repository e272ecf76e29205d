package dev.mcptasks.app.assembly;

import dev.mcptasks.domain.WorkerId;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.Random;

/** Worker ids unique per start: {@code host:pid:random}, printable and short enough for an indexed column. */
public final class WorkerIds {
    private static final int MAX_HOST_CHARS = 64;

    private WorkerIds() {}

    /** A new id for this process. */
    public static WorkerId generate() {
        return generate(hostName(), ProcessHandle.current().pid(), new SecureRandom());
    }

    static WorkerId generate(String host, long pid, Random random) {
        byte[] bytes = new byte[5];
        random.nextBytes(bytes);
        return WorkerId.of(sanitize(host) + ":" + pid + ":" + Base32.encode(bytes));
    }

    /** This machine's host name, as printable ASCII. */
    public static String hostName() {
        try {
            return sanitize(InetAddress.getLocalHost().getHostName());
        } catch (UnknownHostException | SecurityException e) {
            String fromEnvironment = System.getenv("HOSTNAME");
            return sanitize(fromEnvironment == null ? "localhost" : fromEnvironment);
        }
    }

    static String sanitize(String host) {
        String cleaned = host == null ? "" : host.replaceAll("[^A-Za-z0-9._-]", "-");
        if (cleaned.isEmpty()) {
            cleaned = "localhost";
        }
        return cleaned.length() > MAX_HOST_CHARS ? cleaned.substring(0, MAX_HOST_CHARS) : cleaned;
    }
}
