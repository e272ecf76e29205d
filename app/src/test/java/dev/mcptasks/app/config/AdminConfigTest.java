package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code admin}: the token, the users with their roles, the loopback rule, and one line per mistake. */
class AdminConfigTest {
    private static final String TOKEN = "0123456789abcdef-admin";
    private final ConfigLoader loader = new ConfigLoader(Map.of("VIEW_TOKEN", "0123456789abcdef-view")::get,
            Path.of("."));

    private AppConfig parse(String json) {
        return loader.parse("test.json", json);
    }

    @Test
    void usersAreReadWithTheirRolesAndTokensFromTheEnvironment() {
        AdminConfig admin = parse("{\"admin\": {\"host\": \"0.0.0.0\", \"token\": \"" + TOKEN + "\", \"users\": {"
                + "\"alice\": {\"token\": \"0123456789abcdef-alice\", \"role\": \"admin\"},"
                + "\"view\": {\"token\": \"${env:VIEW_TOKEN}\", \"role\": \"viewer\"}}}}").adminConfig().orElseThrow();

        assertThat(admin.token()).isEqualTo(TOKEN);
        assertThat(admin.users()).containsExactly(
                new AdminConfig.User("alice", "0123456789abcdef-alice", "admin"),
                new AdminConfig.User("view", "0123456789abcdef-view", "viewer"));
        assertThat(admin.toString()).doesNotContain("0123456789abcdef");
        assertThat(ConfiguredSecrets.of(parse("{\"admin\": {\"users\": {\"view\": {\"token\": \"${env:VIEW_TOKEN}\","
                + " \"role\": \"viewer\"}}}}"))).contains("0123456789abcdef-view");
    }

    @Test
    void usersAloneAreEnoughBeyondLoopbackAndTheOldFormStillReads() {
        assertThat(parse("{\"admin\": {\"host\": \"0.0.0.0\", \"users\": {\"view\": {\"token\": \"${env:VIEW_TOKEN}\","
                + " \"role\": \"viewer\"}}}}").adminConfig().orElseThrow().token()).isNull();
        assertThat(parse("{\"admin\": {\"token\": \"" + TOKEN + "\"}}").adminConfig().orElseThrow().users())
                .isEqualTo(List.of());
    }

    @Test
    void aMistakeIsOneLineNamingTheKey() {
        assertError("{\"admin\": {\"host\": \"0.0.0.0\"}}", "admin.token", "not a loopback address");
        assertError("{\"admin\": {\"users\": {\"a\": {\"token\": \"" + TOKEN + "\", \"role\": \"root\"}}}}",
                "admin.users.a.role", "must be admin or viewer, was 'root'");
        assertError("{\"admin\": {\"users\": {\"a\": {\"token\": \"short\", \"role\": \"admin\"}}}}",
                "admin.users.a.token", "at least 16");
        assertError("{\"admin\": {\"users\": {\"a\": {\"token\": \"" + TOKEN + "\"}}}}", "admin.users.a.role",
                "role");
        assertError("{\"admin\": {\"users\": {\"a\": {\"token\": \"" + TOKEN + "\", \"role\": \"admin\","
                + " \"email\": \"x\"}}}}", "admin.users.a.email", "allowed here: role, token");
        assertError("{\"admin\": {\"token\": \"" + TOKEN + "\", \"users\": {\"a\": {\"token\": \"" + TOKEN
                + "\", \"role\": \"viewer\"}}}}", "admin.users", "another principal's token");
        assertError("{\"admin\": {\"token\": \"" + TOKEN + "\", \"users\": {\"admin\": {\"token\":"
                + " \"0123456789abcdef-other\", \"role\": \"viewer\"}}}}", "admin.users", "names 'admin'");
    }

    private void assertError(String json, String key, String messagePart) {
        assertThatThrownBy(() -> parse(json))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("test.json: ")
                .hasMessageContaining(messagePart)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"))
                .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo(key));
    }
}
