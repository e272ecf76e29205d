package dev.mcptasks.ports.repository;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A repository assembled from roles sends every call, batched forms and defaults included, to the role that
 * declares it and to no other; the composite itself declares no method of its own.
 */
class ComposedTaskRepositoryTest {
    private static final List<Class<?>> ROLES = List.of(TaskRecords.class, TaskClaims.class, NotificationOutbox.class,
            WorkerRegistry.class, StoreScope.class);

    private record Call(Class<?> role, String method) {}

    private final List<Call> calls = new ArrayList<>();

    @Test
    void theCompositeIsExactlyItsRolesAndTheRolesShareNoMethod() {
        assertThat(TaskRepository.class.getDeclaredMethods()).as("every method belongs to a role").isEmpty();
        assertThat(TaskRepository.class.getInterfaces()).containsExactlyInAnyOrderElementsOf(ROLES);
        List<String> signatures = ROLES.stream().flatMap(role -> Arrays.stream(role.getDeclaredMethods()))
                .filter(method -> !method.isSynthetic() && !Modifier.isStatic(method.getModifiers()))
                .map(ComposedTaskRepositoryTest::signature).toList();
        assertThat(signatures).doesNotHaveDuplicates();
        assertThat(signatures).hasSize(TaskRepository.class.getMethods().length);
    }

    @Test
    void everyCallReachesTheRoleThatDeclaresIt() throws Exception {
        TaskRepository composed = ComposedTaskRepository.of(role(TaskRecords.class), role(TaskClaims.class),
                role(NotificationOutbox.class), role(WorkerRegistry.class), role(StoreScope.class));

        for (Method method : TaskRepository.class.getMethods()) {
            calls.clear();
            method.invoke(composed, arguments(method));

            assertThat(calls).as(signature(method))
                    .containsExactly(new Call(method.getDeclaringClass(), method.getName()));
        }
    }

    @Test
    void aReplacedRoleTakesOnlyItsOwnCallsAndWrapsTheOneItReplaces() {
        TaskRepository whole = (TaskRepository) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {TaskRepository.class}, recording(TaskRepository.class));
        List<TaskClaims> wrapped = new ArrayList<>();
        TaskRepository metered = ComposedTaskRepository.of(whole).withClaims(claims -> {
            wrapped.add(claims);
            return new ForwardingTaskClaims() {
                @Override
                public TaskClaims delegate() {
                    return claims;
                }

                @Override
                public boolean renew(dev.mcptasks.domain.Claim claim, java.time.Duration lease) {
                    calls.add(new Call(TaskClaims.class, "renew"));
                    return ForwardingTaskClaims.super.renew(claim, lease);
                }
            };
        });

        metered.renew(null, null);
        metered.find(null);
        metered.heartbeat(null);

        assertThat(wrapped).hasSize(1);
        assertThat(wrapped.get(0)).isSameAs(whole);
        assertThat(calls).containsExactly(new Call(TaskClaims.class, "renew"), new Call(TaskRepository.class, "renew"),
                new Call(TaskRepository.class, "find"), new Call(TaskRepository.class, "heartbeat"));
    }

    @Test
    void composingAComposedRepositoryTakesItsRolesOverWithoutAnotherHop() {
        ComposedTaskRepository inner = ComposedTaskRepository.of(role(TaskRecords.class), role(TaskClaims.class),
                role(NotificationOutbox.class), role(WorkerRegistry.class), role(StoreScope.class));

        ComposedTaskRepository.of(inner).workers();

        assertThat(calls).containsExactly(new Call(WorkerRegistry.class, "workers"));
    }

    /** A role that records each call it receives (defaults included: a proxy receives those too). */
    private <R> R role(Class<R> role) {
        return role.cast(Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {role}, recording(role)));
    }

    private java.lang.reflect.InvocationHandler recording(Class<?> role) {
        return (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> role.getSimpleName();
                };
            }
            calls.add(new Call(role, method.getName()));
            return answer(method);
        };
    }

    private static Object answer(Method method) {
        Class<?> type = method.getReturnType();
        if (type == boolean.class) {
            return false;
        }
        if (type == List.class) {
            return List.of();
        }
        if (type == Optional.class) {
            return Optional.empty();
        }
        if (type == Map.class) {
            return Map.of();
        }
        return null;
    }

    private static Object[] arguments(Method method) {
        return Arrays.stream(method.getParameterTypes()).map(ComposedTaskRepositoryTest::zero).toArray();
    }

    private static Object zero(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        return null;
    }

    private static String signature(Method method) {
        return method.getName() + Arrays.toString(method.getParameterTypes());
    }
}
