package io.zkion.discovery;

/** JUnit category of soak and scale tests; they run only with {@code -Pslow}. */
public interface SlowTest {
}
