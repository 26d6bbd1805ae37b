from pipecat.flows import FlowResult


class AvailabilityResult(FlowResult):
    available: bool
