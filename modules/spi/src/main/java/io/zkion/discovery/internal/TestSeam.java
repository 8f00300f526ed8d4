package io.zkion.discovery.internal;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the few places where tests reach into a running node: each is small and named for what it lets a test do.
 * Nothing in the SPI calls them; `grep -r @TestSeam` lists them all.
 */
@Documented
@Retention(RetentionPolicy.SOURCE)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface TestSeam {
}
