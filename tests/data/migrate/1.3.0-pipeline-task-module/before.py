from pipecat.pipeline.task import PipelineParams

params = PipelineParams(
    enable_metrics=True,
    enable_usage_metrics=True,
    audio_out_sample_rate=16000,
)
