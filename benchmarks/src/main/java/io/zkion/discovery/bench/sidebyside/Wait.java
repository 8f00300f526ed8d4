package io.zkion.discovery.bench.sidebyside;

import java.util.function.BooleanSupplier;

/** Polls a condition every 2 ms (the scenarios time events in milliseconds); fails after a bound. */
final class Wait {
    private Wait() {
    }

    static void until(long ms, BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + ms * 1_000_000;

        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > end)
                throw new IllegalStateException("Timed out after " + ms + " ms");

            Thread.sleep(2);
        }
    }
}
