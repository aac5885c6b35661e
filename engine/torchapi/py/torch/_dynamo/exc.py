# torch._dynamo.exc: the exceptions torch.compile raises (PyTorch 2.3's hierarchy).


class TorchDynamoException(RuntimeError):
    pass


class InternalTorchDynamoError(TorchDynamoException):
    pass


class RestartAnalysis(TorchDynamoException):
    pass


class SkipFrame(TorchDynamoException):
    pass


class TorchRuntimeError(TorchDynamoException):
    pass


class InvalidBackend(TorchDynamoException):
    def __init__(self, name):
        super().__init__(
            "Invalid backend: "
            + repr(name)
            + ", see `torch._dynamo.list_backends()` for available backends."
        )


class BackendCompilerFailed(TorchDynamoException):
    pass


class Unsupported(TorchDynamoException):
    pass


class RecompileError(TorchDynamoException):
    pass


class UserError(Unsupported):
    pass
