package dev.mcptasks.admin;

import java.util.List;
import java.util.Map;

/**
 * A request the listener admitted (authenticated when a token is configured).
 *
 * @param method the HTTP method
 * @param path the path without its query
 * @param query the decoded query parameters
 */
public record AdminRequest(String method, String path, Map<String, List<String>> query) {
    public AdminRequest {
        query = Map.copyOf(query);
    }
}
