from pipecat.audio.vad.aic_vad import AICVADAnalyzer


def make_vad(vad_context_factory):
    return AICVADAnalyzer(vad_context_factory=vad_context_factory, sensitivity=6.0)
