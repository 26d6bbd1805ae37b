import os

from pipecat.audio.filters.aic_filter import AICFilter

aic_filter = AICFilter(license_key=os.getenv("AIC_LICENSE_KEY", ""))
vad_analyzer = aic_filter.create_vad_analyzer(speech_hold_duration=0.05)
