# time: the clocks advance, sleep waits at least as long as asked, and bad lengths are
# CPython's errors.
import time

t0 = time.time()
p0 = time.perf_counter()
m0 = time.monotonic()
time.sleep(0.05)
print(time.perf_counter() - p0 >= 0.05, time.monotonic() - m0 >= 0.05, time.time() >= t0)
print(t0 > 1.7e9, isinstance(time.time_ns(), int), time.perf_counter_ns() > 0)
print(type(time.process_time()).__name__, time.sleep(0) is None)
for bad in (-1, "1", float("nan")):
    try:
        time.sleep(bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__ + ":", e)
