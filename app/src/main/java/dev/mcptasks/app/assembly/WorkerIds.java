package dev.mcptasks.app.assembly;

import dev.mcptasks.domain.Base32;
import dev.mcptasks.domain.WorkerId;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * Worker ids unique per start: {@code host:pid:random}, optionally after an operator's label
 * ({@code label:host:pid:random}), printable and short enough for an indexed column. An id is never reused: claims,
 * the workers table and process-local endpoint ownership all tell one start from another by it.
 */
public final class WorkerIds {
    private static final int MAX_HOST_CHARS = 64;
    private static final int MAX_ID_CHARS = 128;
    private static final int RANDOM_CHARS = 8;
    public static final int MAX_LABEL_CHARS = 40;
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_LABEL_CHARS + "}");

    private WorkerIds() {}

    /** A new id for this process. */
    public static WorkerId generate() {
        return generate(hostName(), ProcessHandle.current().pid(), new SecureRandom());
    }

    /**
     * A new id for this process named by an operator's label, for {@code serve --worker-id}.
     *
     * @throws IllegalArgumentException when the label is not 1 to {@value #MAX_LABEL_CHARS} characters of
     *     {@code A-Z a-z 0-9 . _ -}; the message names the rule and the value
     */
    public static WorkerId labelled(String label) {
        return labelled(label, hostName(), ProcessHandle.current().pid(), new SecureRandom());
    }

    static WorkerId labelled(String label, String host, long pid, Random random) {
        if (label == null || !LABEL.matcher(label).matches()) {
            throw new IllegalArgumentException("--worker-id must be 1 to " + MAX_LABEL_CHARS
                    + " characters of A-Z a-z 0-9 . _ -, was '" + label + "'");
        }
        // host is the part that gives way: label, pid and random part must all stay readable
        int hostBudget = MAX_ID_CHARS - label.length() - String.valueOf(pid).length() - RANDOM_CHARS - 3;
        String shortHost = sanitize(host);
        if (shortHost.length() > hostBudget) {
            shortHost = shortHost.substring(0, hostBudget);
        }
        return WorkerId.of(label + ":" + generate(shortHost, pid, random).value());
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
