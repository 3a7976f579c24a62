"""BufferPool: a big result's memory is lent again only once no tensor uses it."""

from __future__ import annotations

import gc
import threading
import time

import torch

from mha_core.layer.buffers import BufferPool

MB = 1 << 20


def pool(**kw) -> BufferPool:
    return BufferPool(min_bytes=kw.pop("min_bytes", MB), **kw)


def test_memory_comes_back_when_the_last_view_is_gone():
    p = pool()
    a = p.empty(4, 256, 256)  # 1 MiB
    ptr = a.data_ptr()
    row = a[2]  # a view keeps the memory in use
    del a
    gc.collect()
    assert p.idle_bytes == 0
    b = p.empty(4, 256, 256)
    assert b.data_ptr() != ptr  # not lent twice
    row.fill_(7.0)
    b.fill_(1.0)
    assert bool((row == 7.0).all())
    del row
    assert p.idle_bytes == MB
    c = p.empty(4, 256, 256)
    assert c.data_ptr() == ptr and c.shape == (4, 256, 256) and c.dtype == torch.float32
    assert p.idle_bytes == 0


def test_numpy_views_keep_the_memory_too():
    p = pool()
    a = p.empty(256, 1024)
    arr = a.numpy()
    del a
    assert p.idle_bytes == 0
    del arr
    assert p.idle_bytes == MB


def test_sizes_and_limits():
    p = pool(max_idle_bytes=3 * MB)
    small = p.empty(10, 10)  # under min_bytes: an ordinary tensor, never pooled
    del small
    assert p.idle_bytes == 0
    blocks = [p.empty(MB // 4) for _ in range(4)]
    del blocks
    assert p.idle_bytes == 3 * MB  # the oldest dropped beyond max_idle_bytes
    big = p.empty(3 * MB // 4)  # 3 MiB: no idle block of 3 to 6 MiB
    assert p.idle_bytes == 3 * MB
    half = p.empty(MB // 8)  # 0.5 MiB < min_bytes
    assert p.idle_bytes == 3 * MB
    del big, half
    p.release()
    assert p.idle_bytes == 0


def test_a_block_of_up_to_twice_the_size_is_reused():
    p = pool()
    a = p.empty(2 * MB // 4)  # 2 MiB
    ptr = a.data_ptr()
    del a
    b = p.empty(3, MB // 4)  # 3 MiB: too big for it
    assert b.data_ptr() != ptr
    c = p.empty(MB // 4)  # 1 MiB: fits in 2
    assert c.data_ptr() == ptr and c.numel() == MB // 4


def test_threads_never_share_a_block():
    p = pool()
    seen: list[set[int]] = []
    errors: list[str] = []

    def work(k: int) -> None:
        mine = set()
        for _ in range(50):
            t = p.empty(MB // 4)
            t.fill_(float(k))
            mine.add(t.data_ptr())
            time.sleep(0.001)  # the others take and give back blocks meanwhile
            if not bool((t == float(k)).all()):
                errors.append(f"thread {k} saw another's values")
            del t
        seen.append(mine)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(seen) == 4
