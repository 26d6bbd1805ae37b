import os

from pipecat.audio.vad.aic_quail_vad import AICQuailVADAnalyzer

license_key = os.getenv("AIC_SDK_LICENSE", "")
vad_analyzer = AICQuailVADAnalyzer(license_key=license_key, speech_hold_duration=0.05)
