package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ForwardingNotificationOutbox;
import dev.mcptasks.ports.repository.ForwardingStoreScope;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.ForwardingTaskRecords;
import dev.mcptasks.ports.repository.ForwardingWorkerRegistry;
import dev.mcptasks.ports.repository.NotificationOutbox;
import dev.mcptasks.ports.repository.StoreScope;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRecords;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkerRegistry;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The shape of a store decorator, checked by reflection: a decorator of the whole repository is a
 * {@link ComposedTaskRepository} that overrides no call itself and is built from role wrappers, and a role wrapper
 * declares no public method outside the roles it implements (and its forwarding interface's {@code delegate()}).
 * Run it on your own decorators as the core and the application do on theirs.
 */
public final class DecoratorShape {
    /** The role ports {@link TaskRepository} is the sum of. */
    public static final List<Class<?>> ROLES = List.of(TaskRecords.class, TaskClaims.class, NotificationOutbox.class,
            WorkerRegistry.class, StoreScope.class);
    private static final List<Class<?>> FORWARDING = List.of(ForwardingTaskRecords.class, ForwardingTaskClaims.class,
            ForwardingNotificationOutbox.class, ForwardingWorkerRegistry.class, ForwardingStoreScope.class);

    /** The batched writes of each role that has them (one store statement for many claims where the store can). */
    private static final Map<Class<?>, List<String>> BATCHED = Map.of(
            TaskClaims.class, List.of("renewAll", "recordSubmitAttempts", "applySubmittedAll", "applyOutcomes"),
            NotificationOutbox.class, List.of("markAllDispatched", "finishNotifications"));

    private DecoratorShape() {}

    /** True for a class (not an interface) that implements some roles but not the whole repository. */
    public static boolean isRoleWrapper(Class<?> type) {
        return !type.isInterface() && !TaskRepository.class.isAssignableFrom(type)
                && ROLES.stream().anyMatch(role -> role.isAssignableFrom(type));
    }

    /** Asserts that {@code decorator} is composed of the role wrappers nested in it and changes no call itself. */
    public static void assertComposedOfRoleWrappers(Class<?> decorator) {
        String name = decorator.getName();
        assertThat(ComposedTaskRepository.class).as(name).isAssignableFrom(decorator);
        Set<String> repository = signatures(Arrays.stream(TaskRepository.class.getMethods()));
        assertThat(Arrays.stream(decorator.getDeclaredMethods()).map(DecoratorShape::signature))
                .as("%s overrides no repository method itself", name).noneMatch(repository::contains);
        List<Class<?>> wrappers = Arrays.stream(decorator.getDeclaredClasses()).filter(DecoratorShape::isRoleWrapper)
                .toList();
        assertThat(wrappers).as("%s wraps roles", name).isNotEmpty();
        wrappers.forEach(DecoratorShape::assertWrapsOnlyItsRoles);
    }

    /**
     * Asserts that every role wrapper of {@code decorator} passes the batched writes of the roles it wraps on as
     * batches, by its own override or a base that forwards them ({@code ResultWatchingClaims}). The forwarding
     * interfaces leave them to their defaults on purpose (one single write of the wrapper per element, so a wrapper
     * watching single writes sees every element), which costs the store's one-statement form: a decorator in the
     * store's chain passes each batch on as a batch, watching its elements there.
     */
    public static void assertPassesBatchesOn(Class<?> decorator) {
        for (Class<?> wrapper : decorator.getDeclaredClasses()) {
            if (!isRoleWrapper(wrapper)) {
                continue;
            }
            BATCHED.forEach((role, batches) -> {
                if (role.isAssignableFrom(wrapper)) {
                    assertThat(batches).as("%s passes the batched writes of %s on as batches", wrapper.getName(),
                            role.getSimpleName()).allMatch(batch -> passedOn(wrapper, role, batch));
                }
            });
        }
    }

    /** Whether {@code wrapper}'s {@code batch} is its own or a forwarding base's, not the role's per-element default. */
    private static boolean passedOn(Class<?> wrapper, Class<?> role, String batch) {
        Method declared = Arrays.stream(role.getMethods()).filter(method -> method.getName().equals(batch))
                .findFirst().orElseThrow();
        try {
            Class<?> owner = wrapper.getMethod(batch, declared.getParameterTypes()).getDeclaringClass();
            return owner != role && !FORWARDING.contains(owner);
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** Asserts that {@code wrapper} declares no public method outside the roles it implements. */
    public static void assertWrapsOnlyItsRoles(Class<?> wrapper) {
        assertThat(TaskRepository.class.isAssignableFrom(wrapper)).as("%s wraps roles, not the whole repository",
                wrapper.getName()).isFalse();
        Set<String> allowed = signatures(Stream.concat(ROLES.stream(), FORWARDING.stream())
                .filter(role -> role.isAssignableFrom(wrapper)).flatMap(role -> Arrays.stream(role.getMethods())));
        assertThat(Arrays.stream(wrapper.getDeclaredMethods())
                .filter(method -> Modifier.isPublic(method.getModifiers()) && !method.isSynthetic()
                        && !Modifier.isStatic(method.getModifiers()))
                .map(DecoratorShape::signature).filter(signature -> !allowed.contains(signature)))
                .as("%s declares only methods of its roles", wrapper.getName()).isEmpty();
    }

    private static Set<String> signatures(Stream<Method> methods) {
        return methods.map(DecoratorShape::signature).collect(Collectors.toSet());
    }

    private static String signature(Method method) {
        return method.getName() + Arrays.toString(method.getParameterTypes());
    }
}
