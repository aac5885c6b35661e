# contextlib for Kiln workloads: contextmanager, nullcontext, suppress, closing, ExitStack and
# AbstractContextManager.

import functools


class AbstractContextManager:
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        return None


class nullcontext(AbstractContextManager):
    def __init__(self, enter_result=None):
        self.enter_result = enter_result

    def __enter__(self):
        return self.enter_result

    def __exit__(self, *excinfo):
        pass


class suppress(AbstractContextManager):
    def __init__(self, *exceptions):
        self._exceptions = exceptions

    def __enter__(self):
        pass

    def __exit__(self, exctype, excinst, exctb):
        if exctype is None:
            return False
        return issubclass(exctype, self._exceptions)


class closing(AbstractContextManager):
    def __init__(self, thing):
        self.thing = thing

    def __enter__(self):
        return self.thing

    def __exit__(self, *exc_info):
        self.thing.close()


class ExitStack(AbstractContextManager):
    def __init__(self):
        self._callbacks = []

    def enter_context(self, cm):
        result = type(cm).__enter__(cm)
        self._callbacks.append(lambda *exc: type(cm).__exit__(cm, *exc))
        return result

    def callback(self, callback, /, *args, **kwds):
        self._callbacks.append(lambda *exc: callback(*args, **kwds))
        return callback

    def push(self, exit):
        if hasattr(exit, "__exit__"):
            self._callbacks.append(lambda *exc: type(exit).__exit__(exit, *exc))
        else:
            self._callbacks.append(exit)
        return exit

    def pop_all(self):
        new = ExitStack()
        new._callbacks = self._callbacks
        self._callbacks = []
        return new

    def close(self):
        self.__exit__(None, None, None)

    def __exit__(self, *exc_details):
        suppressed = False
        pending = exc_details
        while self._callbacks:
            cb = self._callbacks.pop()
            try:
                if cb(*pending):
                    suppressed = True
                    pending = (None, None, None)
            except BaseException as e:
                pending = (type(e), e, e.__traceback__)
                suppressed = False
        if pending[1] is not None and pending[1] is not exc_details[1]:
            raise pending[1]
        return suppressed and exc_details[0] is not None


class _GeneratorContextManager(AbstractContextManager):
    """What a @contextmanager function returns: the code before its yield is __enter__, the
    code after it __exit__; an exception in the with block is raised at the yield."""

    def __init__(self, func, args, kwds):
        self.gen = func(*args, **kwds)
        self._func, self._args, self._kwds = func, args, kwds

    def __call__(self, function):
        # Used as a decorator: each call of the function runs inside a fresh context.
        @functools.wraps(function)
        def inner(*args, **kwds):
            with _GeneratorContextManager(self._func, self._args, self._kwds):
                return function(*args, **kwds)

        return inner

    def __enter__(self):
        try:
            return next(self.gen)
        except StopIteration:
            raise RuntimeError("generator didn't yield") from None

    def __exit__(self, typ, value, traceback):
        if typ is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            raise RuntimeError("generator didn't stop")
        if value is None:
            value = typ()
        try:
            self.gen.throw(value)
        except StopIteration as exc:
            return exc is not value
        except RuntimeError as exc:
            if exc is value:
                return False
            if isinstance(value, StopIteration) and exc.__cause__ is value:
                return False
            raise
        except BaseException as exc:
            if exc is not value:
                raise
            return False
        raise RuntimeError("generator didn't stop after throw()")


def contextmanager(func):
    @functools.wraps(func)
    def helper(*args, **kwds):
        return _GeneratorContextManager(func, args, kwds)

    return helper
