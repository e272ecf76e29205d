package dev.mcptasks.app.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.mcptasks.adapters.webhook.WebhookSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Finds and reads {@code mcp-tasks.json}: an explicit {@code --config FILE} first, then {@code MCP_TASKS_CONFIG},
 * then {@code mcp-tasks.json} in the working directory; with none of these the built-in defaults apply. Every problem
 * is a {@link ConfigException} naming the file and the key.
 */
public final class ConfigLoader {
    public static final String FILE_NAME = "mcp-tasks.json";
    public static final String ENV_VARIABLE = "MCP_TASKS_CONFIG";

    private static final Set<String> ROOT_KEYS = Set.of("database", "runtime", "mcpServers", "notifications",
            "gateway", "admin", "retention");
    private static final Set<String> DATABASE_KEYS = Set.of("url", "user", "password", "poolSize", "synchronous");
    private static final Set<String> RUNTIME_KEYS = Set.of("leaseSeconds", "pollIntervalSeconds",
            "maxConcurrentControlCalls", "maxBackoffSeconds", "inputRequiredPollSeconds", "degradedAfterErrors",
            "maxResultBytes", "drainSeconds", "workerStaleAfterSeconds", "notificationTimeoutSeconds", "tickMillis");

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final Function<String, String> environment;
    private final Path workingDirectory;

    /**
     * @param environment looks up environment variables (for {@code MCP_TASKS_CONFIG} and {@code ${env:NAME}})
     * @param workingDirectory where {@code mcp-tasks.json} is looked for and relative paths are resolved
     */
    public ConfigLoader(Function<String, String> environment, Path workingDirectory) {
        this.environment = environment;
        this.workingDirectory = workingDirectory;
    }

    /** A loader over the process environment and working directory. */
    public static ConfigLoader system() {
        return new ConfigLoader(System::getenv, Path.of("").toAbsolutePath());
    }

    /** Loads {@code explicitFile} if given, else the file named by the environment, else the default file. */
    public AppConfig load(Path explicitFile) {
        if (explicitFile != null) {
            return loadFile(workingDirectory.resolve(explicitFile));
        }
        String fromEnvironment = environment.apply(ENV_VARIABLE);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return loadFile(workingDirectory.resolve(fromEnvironment));
        }
        Path defaultFile = workingDirectory.resolve(FILE_NAME);
        return Files.exists(defaultFile) ? loadFile(defaultFile) : AppConfig.defaults();
    }

    AppConfig loadFile(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException("", "configuration file " + file + " does not exist");
        } catch (IOException e) {
            throw new ConfigException("", "cannot read configuration file " + file + ": " + e.getMessage(), e);
        }
        return parse(file.toString(), text);
    }

    /** Parses configuration text; {@code source} names it in error messages. */
    public AppConfig parse(String source, String text) {
        try {
            return read(source, readTree(text));
        } catch (ConfigException e) {
            throw e.in(source);
        }
    }

    private static JsonNode readTree(String text) {
        try {
            JsonNode tree = JSON.readTree(text);
            if (tree == null || tree.isMissingNode()) {
                throw new ConfigException("", "the configuration is empty; expected a JSON object");
            }
            return tree;
        } catch (JsonProcessingException e) {
            // the parser's message may quote the offending text: keep only the position and the kind of problem
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new ConfigException("", "invalid JSON" + where + ": " + JsonSyntaxText.of(e));
        }
    }

    private AppConfig read(String source, JsonNode tree) {
        JsonSection root = JsonSection.root(tree);
        root.requireOnly(ROOT_KEYS);
        EnvSubstitution substitution = new EnvSubstitution(environment);
        RuntimeConfig runtime = readRuntime(root.section("runtime"));
        DatabaseConfig database = readDatabase(root.section("database"), substitution,
                runtime.maxConcurrentControlCalls());
        ServerConfigReader servers = new ServerConfigReader(substitution, workingDirectory);
        Map<String, ServerConfig> byName = new LinkedHashMap<>();
        root.section("mcpServers").members().forEach((name, section) -> byName.put(name, servers.read(name, section)));
        WebhookSettings webhook = new WebhookConfigReader(substitution).read(root.section("notifications"), runtime);
        GatewayConfig gateway = root.has("gateway")
                ? new GatewayConfigReader(substitution).read(root.section("gateway"), byName.keySet())
                : null;
        AdminConfig admin = root.has("admin") ? AdminConfig.read(root.section("admin"), substitution) : null;
        return new AppConfig(source, database, runtime, byName, webhook, gateway, admin,
                RetentionConfigReader.read(root.section("retention")));
    }

    /** @param slots the worker's control slots, which size the default PostgreSQL pool */
    private static DatabaseConfig readDatabase(JsonSection section, EnvSubstitution substitution, int slots) {
        section.requireOnly(DATABASE_KEYS);
        String url = section.string("url");
        if (url == null) {
            url = DatabaseConfig.DEFAULT_URL;
        }
        String password = substitution.resolve(section.path("password"), section.string("password"));
        int poolSize = section.intIn("poolSize", DatabaseConfig.defaultPoolSize(slots), DatabaseConfig.MIN_POOL_SIZE,
                DatabaseConfig.MAX_POOL_SIZE);
        DatabaseConfig database = new DatabaseConfig(url, section.string("user"), password, poolSize,
                synchronous(section));
        // a setting the chosen store would silently ignore is a mistake worth naming
        if (database.kind() == DatabaseConfig.Kind.SQLITE && section.has("poolSize")) {
            throw new ConfigException(section.path("poolSize"), section.path("poolSize")
                    + " applies to PostgreSQL only (SQLite writes through one connection)");
        }
        if (database.kind() == DatabaseConfig.Kind.POSTGRES && section.has("synchronous")) {
            throw new ConfigException(section.path("synchronous"), section.path("synchronous")
                    + " applies to SQLite only (PostgreSQL's durability is the server's synchronous_commit)");
        }
        return database;
    }

    /** {@code "synchronous": "FULL" | "NORMAL"}, FULL when absent. */
    private static DatabaseConfig.Synchronous synchronous(JsonSection section) {
        String value = section.string("synchronous");
        if (value == null) {
            return DatabaseConfig.Synchronous.FULL;
        }
        for (DatabaseConfig.Synchronous mode : DatabaseConfig.Synchronous.values()) {
            if (mode.name().equals(value)) {
                return mode;
            }
        }
        throw new ConfigException(section.path("synchronous"), section.path("synchronous")
                + " must be FULL or NORMAL, was '" + value + "'");
    }

    private static RuntimeConfig readRuntime(JsonSection section) {
        section.requireOnly(RUNTIME_KEYS);
        RuntimeConfig defaults = RuntimeConfig.defaults();
        int pollInterval = section.intIn("pollIntervalSeconds", defaults.pollIntervalSeconds(), 1, 300);
        int maxBackoff = section.intIn("maxBackoffSeconds", defaults.maxBackoffSeconds(), 1, 86_400);
        if (maxBackoff < pollInterval) {
            throw new ConfigException(section.path("maxBackoffSeconds"), section.path("maxBackoffSeconds")
                    + " (" + maxBackoff + ") must not be less than pollIntervalSeconds (" + pollInterval + ")");
        }
        return new RuntimeConfig(
                section.intIn("leaseSeconds", defaults.leaseSeconds(), 5, 3600),
                pollInterval,
                section.intIn("maxConcurrentControlCalls", defaults.maxConcurrentControlCalls(), 1, 256),
                maxBackoff,
                section.intIn("inputRequiredPollSeconds", defaults.inputRequiredPollSeconds(), 1, 86_400),
                section.intIn("degradedAfterErrors", defaults.degradedAfterErrors(), 1, 1000),
                section.longIn("maxResultBytes", defaults.maxResultBytes(), 1024, 1024L * 1024 * 1024),
                section.intIn("drainSeconds", defaults.drainSeconds(), 0, 600),
                section.intIn("workerStaleAfterSeconds", defaults.workerStaleAfterSeconds(), 3, 3600),
                section.intIn("notificationTimeoutSeconds", defaults.notificationTimeoutSeconds(), 1, 600),
                section.intIn("tickMillis", defaults.tickMillis(), 10, 60_000));
    }
}
