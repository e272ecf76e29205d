package dev.mcptasks.app;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.Slices;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dependency rule of architecture.md, enforced on the production classes of every module (the runtime core's
 * own rule is {@code runtime.RuntimeArchitectureTest}).
 */
class ArchitectureTest {
    /**
     * The roles of the house, by their package under {@code dev.mcptasks}. Adapters live under {@code adapters}: a
     * package outside these roles fails {@link #everyPackageHasARole}, so no adapter escapes the adapter rules by
     * living elsewhere.
     */
    private static final Set<String> ROLES = Set.of("domain", "ports", "core", "app", "mcp", "adapters", "testkit",
            "reference", "chaos", "bench", "examples");

    /**
     * The slices of {@code dev.mcptasks.adapters.(*)..} that are not outbound adapters, each under its own rule: the
     * inbound gateway and the HTTP support module. Every other slice is an outbound adapter, found in the classes
     * themselves: a new adapter module is under the adapter rules the moment it exists, with no list to remember to
     * extend.
     */
    private static final Set<String> NOT_OUTBOUND = Set.of("gateway", "httpsupport");

    /** The outbound adapters' packages ({@code dev.mcptasks.adapters.X..}), derived from the imported classes. */
    private static String[] ADAPTERS;

    /**
     * The support module of the HTTP adapters (as Trino's JDBC plugins share {@code trino-base-jdbc}): the one place
     * for logic several adapters need; any adapter may import it, it imports no adapter.
     */
    private static final String HTTP_SUPPORT = "dev.mcptasks.adapters.httpsupport..";

    /**
     * Adapters that are also inbound fronts: the admin listener's dashboard reads and acts (cancel, answer, replay)
     * through the core's task service, as the gateway does; like every adapter it imports no other adapter, not the
     * MCP client and not the application.
     */
    private static final Set<String> BUILD_ON_THE_CORE = Set.of("dev.mcptasks.adapters.admin..");

    /** What no adapter imports besides other adapters. */
    private static final String[] NOT_FOR_ADAPTERS = {
        "dev.mcptasks.app..", "dev.mcptasks.core..", "dev.mcptasks.adapters.gateway..", "dev.mcptasks.mcp..",
        "dev.mcptasks.testkit..", "dev.mcptasks.reference.."
    };

    private static JavaClasses production;

    /** Test classes arrive as directories (test-classes) and, for shared test support, as test-jars. */
    private static final ImportOption NO_TEST_JARS = location -> !location.contains("-tests.jar")
            && !location.contains("/test-classes/");

    @BeforeAll
    static void importClasses() {
        // sibling modules arrive as directories (IDE) or jars (reactor): import both, tests of neither
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(NO_TEST_JARS)
                .importPackages("dev.mcptasks");
        ADAPTERS = Slices.matching("dev.mcptasks.adapters.(*)..").transform(production).stream()
                .map(slice -> slice.getNamePart(1)).filter(name -> !NOT_OUTBOUND.contains(name)).distinct().sorted()
                .map(name -> "dev.mcptasks.adapters." + name + "..").toArray(String[]::new);
    }

    @Test
    void theAdaptersAreFoundWithoutAList() {
        assertThat(ADAPTERS).contains("dev.mcptasks.adapters.sqlite..", "dev.mcptasks.adapters.postgres..",
                "dev.mcptasks.adapters.stdio..", "dev.mcptasks.adapters.http..", "dev.mcptasks.adapters.sse..",
                "dev.mcptasks.adapters.oauth..", "dev.mcptasks.adapters.webhook..", "dev.mcptasks.adapters.admin..")
                .doesNotContain("dev.mcptasks.adapters.gateway..", HTTP_SUPPORT);
    }

    /** Adapters live under {@code dev.mcptasks.adapters}; every other top-level package is one of the roles. */
    @Test
    void everyPackageHasARole() {
        assertThat(production.stream().map(JavaClass::getPackageName)
                .filter(name -> name.startsWith("dev.mcptasks.") && name.split("\\.").length >= 3)
                .map(name -> name.split("\\.")[2]).filter(top -> !ROLES.contains(top)).distinct())
                .as("packages under dev.mcptasks outside the roles %s", ROLES).isEmpty();
    }

    @Test
    void domainImportsOnlyTheJdk() {
        ArchRule rule = classes().that().resideInAPackage("dev.mcptasks.domain..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.mcptasks.domain..", "java..");
        rule.check(production);
    }

    @Test
    void domainTakesNoTimeNorRandomnessFromTheEnvironment() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.mcptasks.domain..")
                .should().callMethod(java.time.Instant.class, "now")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(java.util.UUID.class, "randomUUID")
                .orShould().callMethod(Math.class, "random")
                .orShould().callMethod(java.time.Clock.class, "systemUTC")
                .orShould().callMethod(java.time.Clock.class, "systemDefaultZone")
                .orShould().callMethod(java.time.LocalDateTime.class, "now")
                .orShould().callConstructor(java.util.Random.class)
                .orShould().callConstructor(java.security.SecureRandom.class)
                .orShould().dependOnClassesThat().areAssignableTo(java.util.concurrent.ThreadLocalRandom.class);
        rule.check(production);
    }

    /** The JDK includes {@code javax.sql} (the java.sql module): a store's pools are {@code DataSource}s. */
    @Test
    void portsDependOnlyOnTheDomainAndTheJdk() {
        classes().that().resideInAPackage("dev.mcptasks.ports..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("dev.mcptasks.ports..", "dev.mcptasks.domain..", "java..", "javax.sql..")
                .check(production);
    }

    /**
     * The ports are contracts: interfaces (with their default methods, and the anonymous implementations their
     * static members make, such as {@code NONE}), records, enums, exceptions and constants. A class with state or logic of its own (a base class, a helper) belongs to the core
     * or to a support module.
     */
    @Test
    void portsHoldInterfacesAndValuesOnly() {
        assertThat(production.stream().filter(type -> type.getPackageName().startsWith("dev.mcptasks.ports"))
                .filter(type -> !(type.isInterface() || type.isRecord() || type.isEnum()
                        || type.isAssignableTo(Throwable.class) || onlyConstants(type) || madeByAnInterface(type)))
                .map(JavaClass::getName)).as("classes in ports that are neither interfaces nor values").isEmpty();
    }

    /** An anonymous implementation an interface makes itself (its {@code NONE}, a static factory's result). */
    private static boolean madeByAnInterface(JavaClass type) {
        return type.isAnonymousClass() && type.getEnclosingClass().map(JavaClass::isInterface).orElse(false);
    }

    private static boolean onlyConstants(JavaClass type) {
        return type.getModifiers().contains(JavaModifier.FINAL)
                && type.getMethods().isEmpty()
                && type.getFields().stream().allMatch(field -> field.getModifiers().containsAll(Set.of(
                        JavaModifier.STATIC,
                        JavaModifier.FINAL)));
    }

    @Test
    void adaptersNeverDependOnEachOtherNorOnTheApplication() {
        for (String adapter : ADAPTERS) {
            adapterImportsNoOtherAdapter(adapter).check(production);
        }
    }

    /** An adapter may build on the support module, and on nothing else of another adapter. */
    private static ArchRule adapterImportsNoOtherAdapter(String adapter) {
        String[] forbidden = Stream.concat(Arrays.stream(ADAPTERS).filter(other -> !other.equals(adapter)),
                Arrays.stream(NOT_FOR_ADAPTERS).filter(role -> !(BUILD_ON_THE_CORE.contains(adapter)
                        && role.equals("dev.mcptasks.core..")))).toArray(String[]::new);
        // no allowEmptyShould: a renamed adapter package fails here instead of escaping the rule
        return noClasses().that().resideInAPackage(adapter)
                .should().dependOnClassesThat().resideInAnyPackage(forbidden);
    }

    /** The support module imports only the ports, the domain, the JDK and its technology: no adapter, no core. */
    @Test
    void theHttpSupportModuleBuildsOnlyOnThePortsAndItsTechnology() {
        supportImportsOnlyPortsAndTechnology().check(production);
    }

    private static ArchRule supportImportsOnlyPortsAndTechnology() {
        return classes().that().resideInAPackage(HTTP_SUPPORT)
                .should().onlyDependOnClassesThat().resideInAnyPackage(HTTP_SUPPORT, "dev.mcptasks.ports..",
                        "dev.mcptasks.domain..", "java..", "javax.net..", "io.netty..");
    }

    /** The rules above are not vacuous: they catch an adapter importing another one, and support importing one. */
    @Test
    void theAdapterRulesCatchAnAdapterImportingAnother() {
        JavaClasses violations = new ClassFileImporter().importClasses(
                dev.mcptasks.adapters.sse.ArchitectureFixtures.ImportsAnotherAdapter.class,
                dev.mcptasks.adapters.httpsupport.ArchitectureFixtures.ImportsAnAdapter.class);
        JavaClasses allowed = new ClassFileImporter().importClasses(
                dev.mcptasks.adapters.sse.ArchitectureFixtures.ImportsTheSupportModule.class);

        assertThatThrownBy(() -> adapterImportsNoOtherAdapter("dev.mcptasks.adapters.sse..").check(violations))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("dev.mcptasks.adapters.http.HttpTransportFactory");
        assertThatThrownBy(() -> supportImportsOnlyPortsAndTechnology().check(violations))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("dev.mcptasks.adapters.sse.SseTransportFactory");
        adapterImportsNoOtherAdapter("dev.mcptasks.adapters.sse..").check(allowed);
    }

    /**
     * An inbound adapter (the MCP gateway) builds on the core, the ports and the domain; it knows no outbound adapter
     * (stores, transports), not the MCP client, and not the composition root that wires them to it.
     */
    @Test
    void inboundAdaptersDependOnTheCoreButNoOtherAdapter() {
        noClasses().that().resideInAPackage("dev.mcptasks.adapters.gateway..")
                .should().dependOnClassesThat().resideInAnyPackage(ADAPTERS)
                .orShould().dependOnClassesThat().resideInAPackage(HTTP_SUPPORT)
                .orShould().dependOnClassesThat().resideInAnyPackage("dev.mcptasks.app..", "dev.mcptasks.mcp..",
                        "dev.mcptasks.testkit..", "dev.mcptasks.reference..")
                .check(production);
    }

    @Test
    void onlyTheApplicationRootCreatesTheInjector() {
        noClasses().that().resideOutsideOfPackage("dev.mcptasks.app.assembly..")
                .should().callMethodWhere(com.tngtech.archunit.core.domain.JavaCall.Predicates.target(
                        com.tngtech.archunit.base.DescribedPredicate.describe("Guice.createInjector",
                                target -> target.getOwner().getName().equals("com.google.inject.Guice")
                                        && target.getName().equals("createInjector"))))
                .allowEmptyShould(true)
                .check(production);
    }

    @Test
    void theMcpClientKnowsTransportsOnlyThroughThePort() {
        noClasses().that().resideInAPackage("dev.mcptasks.mcp..")
                .should().dependOnClassesThat().resideInAnyPackage(ADAPTERS)
                .orShould().dependOnClassesThat().resideInAPackage(HTTP_SUPPORT)
                .orShould().dependOnClassesThat().resideInAnyPackage("dev.mcptasks.app..", "dev.mcptasks.core..")
                .allowEmptyShould(true)
                .check(production);
    }

    /**
     * The composition root ({@code app}: assembly, configuration, the command line) is a leaf: an inbound adapter
     * (an MCP gateway, an HTTP API) depends on the core ({@code dev.mcptasks.core}), never on {@code app}. Only the
     * tools that drive the whole application (the chaos suite, the benchmark) may use it.
     */
    @Test
    void nothingButTheApplicationsOwnToolsDependsOnTheApplication() {
        noClasses().that().resideOutsideOfPackages("dev.mcptasks.app..", "dev.mcptasks.chaos..",
                        "dev.mcptasks.bench..")
                .should().dependOnClassesThat().resideInAPackage("dev.mcptasks.app..")
                .check(production);
    }
}
