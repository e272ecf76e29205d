package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which upstream server a resource URI belongs to. URIs are served unchanged (they also appear in tool results,
 * prompts and embedded resources, which the gateway does not rewrite), so a URI is routed back by what the servers
 * listed: the server whose last {@code resources/list} page named it (the earlier-configured one if two did), else
 * the first whose last {@code resources/templates/list} has a template that matches it. A URI neither names is
 * unknown here: the caller asks each server in turn.
 */
final class ResourceRoutes {
    private static final Pattern EXPRESSION = Pattern.compile("\\{([+#./;?&]?)[^}]*}");

    private final List<String> order;
    private final Map<String, String> listed = new ConcurrentHashMap<>();
    private final Map<String, List<Pattern>> templates = new ConcurrentHashMap<>();

    /** @param order the exposed servers in configuration order (an earlier one wins a URI two servers list) */
    ResourceRoutes(List<String> order) {
        this.order = List.copyOf(order);
    }

    /** A {@code resources/list} page of {@code server}: each {@code uri} it names now routes to it. */
    void listed(String server, JsonNode resources) {
        for (JsonNode resource : resources) {
            String uri = resource.path("uri").textValue();
            if (uri != null) {
                listed.merge(uri, server, (earlier, later) -> rank(later) < rank(earlier) ? later : earlier);
            }
        }
    }

    /** A {@code resources/templates/list} page of {@code server}; the first page replaces what was known. */
    void templates(String server, JsonNode page, boolean firstPage) {
        List<Pattern> patterns = new ArrayList<>();
        for (JsonNode template : page) {
            String uriTemplate = template.path("uriTemplate").textValue();
            if (uriTemplate != null) {
                patterns.add(pattern(uriTemplate));
            }
        }
        templates.merge(server, patterns, (known, more) -> {
            if (firstPage) {
                return more;
            }
            List<Pattern> all = new ArrayList<>(known);
            all.addAll(more);
            return all;
        });
    }

    /** The server {@code uri} routes to, if a listing said. */
    Optional<String> route(String uri) {
        String server = listed.get(uri);
        if (server != null) {
            return Optional.of(server);
        }
        for (String candidate : order) {
            if (templates.getOrDefault(candidate, List.of()).stream().anyMatch(p -> p.matcher(uri).matches())) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The server whose listed template is exactly {@code uriTemplate} (a completion's {@code ref/resource}). */
    Optional<String> routeTemplate(String uriTemplate) {
        String literal = pattern(uriTemplate).pattern();
        for (String candidate : order) {
            if (templates.getOrDefault(candidate, List.of()).stream().anyMatch(p -> p.pattern().equals(literal))) {
                return Optional.of(candidate);
            }
        }
        return route(uriTemplate);
    }

    private int rank(String server) {
        int at = order.indexOf(server);
        return at < 0 ? Integer.MAX_VALUE : at;
    }

    /**
     * An RFC 6570 template as a pattern: a simple expression matches one path segment, a reserved or fragment one
     * ({@code {+x}}, {@code {#x}}) anything, the others (query, path-style) anything as well.
     */
    static Pattern pattern(String uriTemplate) {
        StringBuilder regex = new StringBuilder();
        Matcher matcher = EXPRESSION.matcher(uriTemplate);
        int last = 0;
        while (matcher.find()) {
            regex.append(Pattern.quote(uriTemplate.substring(last, matcher.start())));
            regex.append(matcher.group(1).isEmpty() ? "[^/?#]*" : ".*");
            last = matcher.end();
        }
        regex.append(Pattern.quote(uriTemplate.substring(last)));
        return Pattern.compile(regex.toString());
    }
}
