package dev.mcptasks.adapters.oauth;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;

/** Space-separated OAuth scope lists (RFC 6749 section 3.3), order kept, duplicates dropped. */
final class Scopes {
    private Scopes() {
    }

    static List<String> split(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        LinkedHashSet<String> scopes = new LinkedHashSet<>(List.of(value.trim().split("\\s+")));
        return List.copyOf(scopes);
    }

    static String join(Collection<String> scopes) {
        return String.join(" ", scopes);
    }

    static List<String> union(Collection<String> held, Collection<String> demanded) {
        LinkedHashSet<String> all = new LinkedHashSet<>(held);
        all.addAll(demanded);
        return List.copyOf(new ArrayList<>(all));
    }

    static boolean sameSet(Collection<String> a, Collection<String> b) {
        return new LinkedHashSet<>(a).equals(new LinkedHashSet<>(b));
    }
}
