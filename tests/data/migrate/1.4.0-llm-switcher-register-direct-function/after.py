from pipecat.pipeline.llm_switcher import LLMSwitcher


def build_switcher(llms, get_weather):
    switcher = LLMSwitcher(llms=llms)
    switcher.register_direct_function(get_weather)
    return switcher
