# torch.utils._contextlib for Kiln workloads: what `@torch.no_grad()` (and enable_grad,
# inference_mode, set_grad_enabled) returns for a function. As in PyTorch, the wrapper is a
# Python function made with functools.wraps, so the decorated function keeps its name,
# docstring and __wrapped__, and a compiled frame inlines it like any other function.
import functools
import inspect


def _wrap_generator(ctx, gen_func):
    # Each step of the generator runs in the mode; the caller's code between steps does not.
    @functools.wraps(gen_func)
    def generator_context(*args, **kwargs):
        gen = gen_func(*args, **kwargs)
        try:
            with ctx:
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with ctx:
                        gen.close()
                    raise
                except BaseException as error:
                    with ctx:
                        response = gen.throw(error)
                else:
                    with ctx:
                        response = gen.send(request)
        except StopIteration as stop:
            return stop.value

    return generator_context


def context_decorator(ctx, func):
    if inspect.isclass(func):
        raise RuntimeError(
            "Cannot decorate classes; it is ambiguous whether or not only the "
            "constructor or all methods should have the context manager applied; "
            "additionally, decorating a class at definition-site will prevent "
            "use of the identifier as a conventional type.  "
            "To specify which methods to decorate, decorate each of them "
            "individually."
        )
    if inspect.isgeneratorfunction(func):
        return _wrap_generator(ctx, func)

    @functools.wraps(func)
    def decorate_context(*args, **kwargs):
        with ctx:
            return func(*args, **kwargs)

    return decorate_context
