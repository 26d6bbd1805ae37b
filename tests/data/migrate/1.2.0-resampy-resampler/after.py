from pipecat.audio.resamplers.resampy_resampler import ResampyResampler

resampler = ResampyResampler()


async def to_16k(audio: bytes, in_rate: int) -> bytes:
    return await resampler.resample(audio, in_rate, 16000)
