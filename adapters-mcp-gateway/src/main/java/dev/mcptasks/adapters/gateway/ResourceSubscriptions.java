package dev.mcptasks.adapters.gateway;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which front sessions follow which upstream resource. The gateway holds one upstream subscription per (server, URI)
 * however many sessions follow it: the first session's {@code resources/subscribe} goes upstream, the last one's
 * {@code resources/unsubscribe} (or its session's end) ends it. An upstream {@code notifications/resources/updated}
 * goes to each session that follows that URI of that server, and to no other.
 */
final class ResourceSubscriptions {
    /** One upstream resource. */
    record Resource(String server, String uri) {}

    private final Map<Resource, Set<FrontSession>> followers = new HashMap<>();
    private final Map<FrontSession, Set<Resource>> bySession = new HashMap<>();

    /** Whether {@code resource} has followers now (then its upstream subscription is held already). */
    synchronized boolean held(Resource resource) {
        return followers.containsKey(resource);
    }

    synchronized void follow(FrontSession session, Resource resource) {
        followers.computeIfAbsent(resource, key -> new LinkedHashSet<>()).add(session);
        bySession.computeIfAbsent(session, key -> new LinkedHashSet<>()).add(resource);
    }

    /** The resource of {@code uri} the session followed, if any. */
    synchronized Optional<Resource> followed(FrontSession session, String uri) {
        return bySession.getOrDefault(session, Set.of()).stream().filter(resource -> resource.uri().equals(uri))
                .findFirst();
    }

    /** The session stops following {@code resource}; true when it was the last (the upstream subscription ends). */
    synchronized boolean unfollow(FrontSession session, Resource resource) {
        Set<Resource> mine = bySession.get(session);
        if (mine != null) {
            mine.remove(resource);
            if (mine.isEmpty()) {
                bySession.remove(session);
            }
        }
        Set<FrontSession> sessions = followers.get(resource);
        if (sessions == null || !sessions.remove(session)) {
            return false;
        }
        if (sessions.isEmpty()) {
            followers.remove(resource);
            return true;
        }
        return false;
    }

    /** The session ended: the resources nobody follows any longer. */
    synchronized List<Resource> closed(FrontSession session) {
        List<Resource> ended = new ArrayList<>();
        for (Resource resource : new ArrayList<>(bySession.getOrDefault(session, Set.of()))) {
            if (unfollow(session, resource)) {
                ended.add(resource);
            }
        }
        return ended;
    }

    synchronized List<FrontSession> followers(Resource resource) {
        return List.copyOf(followers.getOrDefault(resource, Set.of()));
    }
}
