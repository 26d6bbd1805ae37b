/**
 * The catalog of Pipecat's API changes from 1.1.0 to 1.7.0, taken from Pipecat's CHANGELOG and its
 * source at each release tag (deprecation messages, `.. deprecated::` directives). Ordered by
 * release. See catalog.ts for what each kind means.
 */
import type { Change } from "./catalog.ts";
import { SETTINGS_CHANGES } from "./settings.gen.ts";

/** The entries written by hand, each with its fixture in tests/data/migrate/. */
export const CATALOGUED: readonly Change[] = [
  // ---------------------------------------------------------------------------------------------
  // Standing: deprecated before 1.0.0 (`.. deprecated:: 0.0.104` in each setter's docstring at
  // v1.7.0), still there until 2.0.0; code written for any release may call them.
  {
    id: "1.0.0-stt-set-model",
    since: "1.0.0",
    kind: "manual",
    summary: "`STTService.set_model` is deprecated since 0.0.104.",
    name: { module: "pipecat.services.stt_service", name: "STTService" },
    member: "set_model",
    action: "Push `STTUpdateSettingsFrame(model=...)` into the pipeline instead " +
      "(`await worker.queue_frame(...)`).",
  },
  {
    id: "1.0.0-stt-set-language",
    since: "1.0.0",
    kind: "manual",
    summary: "`STTService.set_language` is deprecated since 0.0.104.",
    name: { module: "pipecat.services.stt_service", name: "STTService" },
    member: "set_language",
    action: "Push `STTUpdateSettingsFrame(language=...)` into the pipeline instead " +
      "(`await worker.queue_frame(...)`).",
  },
  {
    id: "1.0.0-tts-set-model",
    since: "1.0.0",
    kind: "manual",
    summary: "`TTSService.set_model` is deprecated since 0.0.104.",
    name: { module: "pipecat.services.tts_service", name: "TTSService" },
    member: "set_model",
    action: "Push `TTSUpdateSettingsFrame(model=...)` into the pipeline instead " +
      "(`await worker.queue_frame(...)`).",
  },
  {
    id: "1.0.0-tts-set-voice",
    since: "1.0.0",
    kind: "manual",
    summary: "`TTSService.set_voice` is deprecated since 0.0.104.",
    name: { module: "pipecat.services.tts_service", name: "TTSService" },
    member: "set_voice",
    action: "Push `TTSUpdateSettingsFrame(voice=...)` into the pipeline instead " +
      "(`await worker.queue_frame(...)`).",
  },
  {
    id: "1.0.0-google-stt-set-languages",
    since: "1.0.0",
    kind: "manual",
    summary: "`GoogleSTTService.set_languages` is deprecated since 0.0.104.",
    name: { module: "pipecat.services.google.stt", name: "GoogleSTTService" },
    member: "set_languages",
    action: "Push `STTUpdateSettingsFrame` with `GoogleSTTService.Settings(languages=...)` " +
      "instead.",
  },
  {
    id: "1.0.0-sarvam-stt-set-prompt",
    since: "1.0.0",
    kind: "manual",
    summary: "`SarvamSTTService.set_prompt` is deprecated since 0.0.104.",
    name: { module: "pipecat.services.sarvam.stt", name: "SarvamSTTService" },
    member: "set_prompt",
    action: "Push `STTUpdateSettingsFrame(SarvamSTTService.Settings(prompt=...))` instead.",
  },

  // ---------------------------------------------------------------------------------------------
  // 1.1.0: CHANGELOG "Deprecated"; src/pipecat/transports/base_transport.py (deprecated:: 1.1.0)
  {
    id: "1.1.0-transport-params-video-out-bitrate",
    since: "1.1.0",
    kind: "manual",
    summary:
      "Transport parameter `video_out_bitrate` is deprecated; use provider specific settings.",
    name: { module: "pipecat.transports.base_transport", name: "TransportParams" },
    keyword: "video_out_bitrate",
    action: "Remove `video_out_bitrate` and use provider-specific settings instead " +
      "(e.g., `DailyParams.camera_out_send_settings`).",
  },
  {
    id: "1.1.0-daily-params-video-out-bitrate",
    since: "1.1.0",
    kind: "manual",
    summary: "Deprecated `TransportParams.video_out_bitrate` for the Daily transport.",
    name: { module: "pipecat.transports.daily.transport", name: "DailyParams" },
    keyword: "video_out_bitrate",
    action: "Use `DailyParams.camera_out_send_settings` instead to configure camera publishing " +
      "encodings (bitrate, framerate, codec, etc.).",
  },

  // ---------------------------------------------------------------------------------------------
  // 1.2.0: CHANGELOG "Changed" (`tool_resources` -> `app_resources`) and "Deprecated"
  {
    id: "1.2.0-pipeline-task-tool-resources",
    since: "1.2.0",
    kind: "keyword",
    summary: "`PipelineTask(tool_resources=...)` is deprecated since 1.2.0, use `app_resources`.",
    callee: { module: "pipecat.pipeline.task", name: "PipelineTask" },
    from: "tool_resources",
    to: "app_resources",
  },
  {
    id: "1.2.0-function-call-params-tool-resources",
    since: "1.2.0",
    kind: "manual",
    summary: "`FunctionCallParams.tool_resources` is deprecated; use `app_resources` instead.",
    name: { module: "pipecat.services.llm_service", name: "FunctionCallParams" },
    member: "tool_resources",
    action: "Read `params.app_resources` instead (the same object).",
  },
  {
    id: "1.2.0-function-call-params-tool-resources-keyword",
    since: "1.2.0",
    kind: "keyword",
    summary: "`FunctionCallParams.tool_resources` was renamed to `app_resources`.",
    callee: { module: "pipecat.services.llm_service", name: "FunctionCallParams" },
    from: "tool_resources",
    to: "app_resources",
  },
  {
    id: "1.2.0-frame-processor-setup-tool-resources",
    since: "1.2.0",
    kind: "manual",
    summary: "`FrameProcessorSetup.tool_resources` is deprecated since 1.2.0.",
    name: { module: "pipecat.processors.frame_processor", name: "FrameProcessorSetup" },
    member: "tool_resources",
    action: "Read `setup.pipeline_worker.app_resources` instead " +
      "(`setup.pipeline_task.app_resources` in 1.2.x).",
  },
  {
    id: "1.2.0-filter-incomplete-user-turns",
    since: "1.2.0",
    kind: "manual",
    summary: "Deprecated `LLMUserAggregatorParams.filter_incomplete_user_turns`.",
    name: {
      module: "pipecat.processors.aggregators.llm_response_universal",
      name: "LLMUserAggregatorParams",
    },
    keyword: "filter_incomplete_user_turns",
    action: "Use `user_turn_strategies=FilterIncompleteUserTurnStrategies()` " +
      "(pipecat.turns.user_turn_strategies) instead.",
  },
  {
    id: "1.2.0-user-turn-completion-config",
    since: "1.2.0",
    kind: "manual",
    summary: "`LLMUserAggregatorParams.user_turn_completion_config` is deprecated.",
    name: {
      module: "pipecat.processors.aggregators.llm_response_universal",
      name: "LLMUserAggregatorParams",
    },
    keyword: "user_turn_completion_config",
    action: "Pass the config directly to `FilterIncompleteUserTurnStrategies(config=...)` " +
      "instead.",
  },
  {
    id: "1.2.0-resampy-resampler",
    since: "1.2.0",
    kind: "manual",
    summary: "Deprecated `ResampyResampler` in favor of `SOXRAudioResampler`.",
    name: { module: "pipecat.audio.resamplers.resampy_resampler", name: "ResampyResampler" },
    action: "Use `SOXRAudioResampler` (pipecat.audio.resamplers.soxr_resampler) or the " +
      "`create_file_resampler()` / `create_stream_resampler()` factories (pipecat.audio.utils).",
  },

  // ---------------------------------------------------------------------------------------------
  // 1.3.0: CHANGELOG "Deprecated"; src/pipecat/pipeline/{task,runner,worker}.py
  {
    id: "1.3.0-pipeline-task",
    since: "1.3.0",
    kind: "name",
    summary: "`PipelineTask` has been renamed to `PipelineWorker`.",
    module: "pipecat.pipeline.task",
    from: "PipelineTask",
    to: "PipelineWorker",
    toModule: "pipecat.pipeline.worker",
  },
  {
    id: "1.3.0-pipeline-task-params",
    since: "1.3.0",
    kind: "name",
    summary: "`PipelineTaskParams` has been renamed to `WorkerParams`.",
    module: "pipecat.pipeline.task",
    from: "PipelineTaskParams",
    to: "WorkerParams",
    toModule: "pipecat.workers.base_worker",
  },
  // pipecat.pipeline.base_task (where PipelineTaskParams was defined) was removed in 1.3.0.
  {
    id: "1.3.0-pipeline-task-params-base-task",
    since: "1.3.0",
    kind: "name",
    summary: "`PipelineTaskParams` has been renamed to `WorkerParams`.",
    module: "pipecat.pipeline.base_task",
    from: "PipelineTaskParams",
    to: "WorkerParams",
    toModule: "pipecat.workers.base_worker",
  },
  {
    id: "1.3.0-pipeline-task-module",
    since: "1.3.0",
    kind: "module",
    summary: "The `pipecat.pipeline.task` module has been renamed to `pipecat.pipeline.worker`.",
    from: "pipecat.pipeline.task",
    to: "pipecat.pipeline.worker",
  },
  {
    id: "1.3.0-pipeline-runner",
    since: "1.3.0",
    kind: "name",
    summary: "`PipelineRunner` has been renamed to `WorkerRunner` and moved to " +
      "`pipecat.workers.runner`.",
    module: "pipecat.pipeline.runner",
    from: "PipelineRunner",
    to: "WorkerRunner",
    toModule: "pipecat.workers.runner",
  },
  {
    id: "1.3.0-pipeline-runner-module",
    since: "1.3.0",
    kind: "module",
    summary: "The runner now lives in `pipecat.workers.runner`.",
    from: "pipecat.pipeline.runner",
    to: "pipecat.workers.runner",
  },
  // Not in the CHANGELOG: pipecat/pipeline/task_observer.py became worker_observer.py in 1.3.0.
  {
    id: "1.3.0-task-observer",
    since: "1.3.0",
    kind: "name",
    summary: "`TaskObserver` was renamed to `WorkerObserver` (pipecat.pipeline.worker_observer).",
    module: "pipecat.pipeline.task_observer",
    from: "TaskObserver",
    to: "WorkerObserver",
    toModule: "pipecat.pipeline.worker_observer",
  },
  {
    id: "1.3.0-task-observer-module",
    since: "1.3.0",
    kind: "module",
    summary: "`pipecat.pipeline.task_observer` was renamed to `pipecat.pipeline.worker_observer`.",
    from: "pipecat.pipeline.task_observer",
    to: "pipecat.pipeline.worker_observer",
  },
  {
    id: "1.3.0-base-pipeline-task",
    since: "1.3.0",
    kind: "manual",
    summary: "`BasePipelineTask` (pipecat.pipeline.base_task) was removed in 1.3.0, with no alias.",
    name: { module: "pipecat.pipeline.base_task", name: "BasePipelineTask" },
    action: "Pipelines now run in a `PipelineWorker` (pipecat.pipeline.worker), which derives " +
      "from `BaseWorker` (pipecat.workers.base_worker); port the subclass to one of them.",
  },
  {
    id: "1.3.0-worker-runner-run-worker",
    since: "1.3.0",
    kind: "argument-to-call",
    summary: "Passing a worker to `WorkerRunner.run()` is deprecated.",
    owner: { module: "pipecat.workers.runner", name: "WorkerRunner" },
    method: "run",
    via: "add_workers",
    action: "Register the worker with `await runner.add_workers(worker)` before calling " +
      "`await runner.run()` instead.",
  },
  {
    id: "1.3.0-frame-processor-pipeline-task",
    since: "1.3.0",
    kind: "attribute",
    summary: "`FrameProcessor.pipeline_task` is deprecated; read " +
      "`FrameProcessor.pipeline_worker` instead.",
    owners: [
      { module: "pipecat.processors.frame_processor", name: "FrameProcessor" },
      { module: "pipecat.processors.frame_processor", name: "FrameProcessorSetup" },
    ],
    from: "pipeline_task",
    to: "pipeline_worker",
  },
  // CHANGELOG 1.3.0, "Changed": RTVI UI `task` vocabulary renamed to `job`/`worker` (no aliases).
  {
    id: "1.3.0-rtvi-ui-task-frame",
    since: "1.3.0",
    kind: "name",
    summary: "Renamed `RTVIUITask*Frame` to `RTVIUIJobGroup*Frame`.",
    module: "pipecat.processors.frameworks.rtvi.frames",
    from: "RTVIUITaskFrame",
    to: "RTVIUIJobGroupFrame",
  },
  {
    id: "1.3.0-rtvi-ui-task-frame-rtvi",
    since: "1.3.0",
    kind: "name",
    summary: "Renamed `RTVIUITask*Frame` to `RTVIUIJobGroup*Frame`.",
    module: "pipecat.processors.frameworks.rtvi",
    from: "RTVIUITaskFrame",
    to: "RTVIUIJobGroupFrame",
  },
  {
    id: "1.3.0-rtvi-ui-cancel-task-frame",
    since: "1.3.0",
    kind: "manual",
    summary: "`RTVIUICancelTaskFrame` was renamed to `RTVIUICancelJobGroupFrame`.",
    name: { module: "pipecat.processors.frameworks.rtvi.frames", name: "RTVIUICancelTaskFrame" },
    action: "Use `RTVIUICancelJobGroupFrame`; its `task_id` field is now `job_id`.",
  },
  {
    id: "1.3.0-rtvi-ui-cancel-task-frame-rtvi",
    since: "1.3.0",
    kind: "manual",
    summary: "`RTVIUICancelTaskFrame` was renamed to `RTVIUICancelJobGroupFrame`.",
    name: { module: "pipecat.processors.frameworks.rtvi", name: "RTVIUICancelTaskFrame" },
    action: "Use `RTVIUICancelJobGroupFrame`; its `task_id` field is now `job_id`.",
  },
  {
    id: "1.3.0-ui-task-data",
    since: "1.3.0",
    kind: "name",
    summary: "Renamed the RTVI UI models `UITask*` to `UIJobGroup*`.",
    module: "pipecat.processors.frameworks.rtvi.models",
    from: "UITaskData",
    to: "UIJobGroupData",
  },
  {
    id: "1.3.0-ui-task-message",
    since: "1.3.0",
    kind: "name",
    summary: "Renamed the RTVI UI models `UITask*` to `UIJobGroup*` (`ui-task` -> `ui-job-group`).",
    module: "pipecat.processors.frameworks.rtvi.models",
    from: "UITaskMessage",
    to: "UIJobGroupMessage",
  },
  {
    id: "1.3.0-ui-cancel-task-message",
    since: "1.3.0",
    kind: "name",
    summary: "Renamed `UICancelTaskMessage` to `UICancelJobGroupMessage` " +
      "(`ui-cancel-task` -> `ui-cancel-job-group`).",
    module: "pipecat.processors.frameworks.rtvi.models",
    from: "UICancelTaskMessage",
    to: "UICancelJobGroupMessage",
  },
  {
    id: "1.3.0-ui-cancel-task-data",
    since: "1.3.0",
    kind: "manual",
    summary: "`UICancelTaskData` was renamed to `UICancelJobGroupData` (`task_id` -> `job_id`).",
    name: { module: "pipecat.processors.frameworks.rtvi.models", name: "UICancelTaskData" },
    action: "Use `UICancelJobGroupData`; rename its `task_id` field to `job_id`.",
  },
  {
    id: "1.3.0-ui-task-group-started-data",
    since: "1.3.0",
    kind: "manual",
    summary: "`UITaskGroupStartedData` was renamed to `UIJobGroupStartedData`.",
    name: { module: "pipecat.processors.frameworks.rtvi.models", name: "UITaskGroupStartedData" },
    action: "Use `UIJobGroupStartedData`; its fields `task_id` and `agents` are now `job_id` " +
      "and `workers`.",
  },
  {
    id: "1.3.0-ui-task-update-data",
    since: "1.3.0",
    kind: "manual",
    summary: "`UITaskUpdateData` was renamed to `UIJobUpdateData`.",
    name: { module: "pipecat.processors.frameworks.rtvi.models", name: "UITaskUpdateData" },
    action: "Use `UIJobUpdateData`; its fields `task_id` and `agent_name` are now `job_id` and " +
      "`worker_name`, and its `kind` is `job_update`.",
  },
  {
    id: "1.3.0-ui-task-completed-data",
    since: "1.3.0",
    kind: "manual",
    summary: "`UITaskCompletedData` was renamed to `UIJobCompletedData`.",
    name: { module: "pipecat.processors.frameworks.rtvi.models", name: "UITaskCompletedData" },
    action: "Use `UIJobCompletedData`; its fields `task_id` and `agent_name` are now `job_id` " +
      "and `worker_name`, and its `kind` is `job_completed`.",
  },
  {
    id: "1.3.0-ui-task-group-completed-data",
    since: "1.3.0",
    kind: "manual",
    summary: "`UITaskGroupCompletedData` was renamed to `UIJobGroupCompletedData`.",
    name: {
      module: "pipecat.processors.frameworks.rtvi.models",
      name: "UITaskGroupCompletedData",
    },
    action: "Use `UIJobGroupCompletedData`; rename its `task_id` field to `job_id`.",
  },

  // ---------------------------------------------------------------------------------------------
  // 1.4.0: CHANGELOG "Deprecated"; src/pipecat/frames/frames.py
  {
    id: "1.4.0-task-frame",
    since: "1.4.0",
    kind: "name",
    summary: "`TaskFrame` is deprecated since 1.4.0. Use `WorkerFrame` instead.",
    module: "pipecat.frames.frames",
    from: "TaskFrame",
    to: "WorkerFrame",
  },
  {
    id: "1.4.0-task-system-frame",
    since: "1.4.0",
    kind: "name",
    summary: "`TaskSystemFrame` is deprecated since 1.4.0. Use `WorkerSystemFrame` instead.",
    module: "pipecat.frames.frames",
    from: "TaskSystemFrame",
    to: "WorkerSystemFrame",
  },
  {
    id: "1.4.0-end-task-frame",
    since: "1.4.0",
    kind: "name",
    summary: "`EndTaskFrame` is deprecated since 1.4.0. Use `EndWorkerFrame` instead.",
    module: "pipecat.frames.frames",
    from: "EndTaskFrame",
    to: "EndWorkerFrame",
  },
  {
    id: "1.4.0-stop-task-frame",
    since: "1.4.0",
    kind: "name",
    summary: "`StopTaskFrame` is deprecated since 1.4.0. Use `StopWorkerFrame` instead.",
    module: "pipecat.frames.frames",
    from: "StopTaskFrame",
    to: "StopWorkerFrame",
  },
  {
    id: "1.4.0-cancel-task-frame",
    since: "1.4.0",
    kind: "name",
    summary: "`CancelTaskFrame` is deprecated since 1.4.0. Use `CancelWorkerFrame` instead.",
    module: "pipecat.frames.frames",
    from: "CancelTaskFrame",
    to: "CancelWorkerFrame",
  },
  {
    id: "1.4.0-interruption-task-frame",
    since: "1.4.0",
    kind: "name",
    summary: "`InterruptionTaskFrame` is deprecated since 1.4.0. Use `InterruptionWorkerFrame` " +
      "instead.",
    module: "pipecat.frames.frames",
    from: "InterruptionTaskFrame",
    to: "InterruptionWorkerFrame",
  },
  // CHANGELOG 1.4.0, "Deprecated"; src/pipecat/transports/websocket/server.py
  {
    id: "1.4.0-websocket-server-transport",
    since: "1.4.0",
    kind: "name",
    summary: "Renamed `WebsocketServerTransport` to `SingleClientWebsocketServerTransport`.",
    module: "pipecat.transports.websocket.server",
    from: "WebsocketServerTransport",
    to: "SingleClientWebsocketServerTransport",
  },
  {
    id: "1.4.0-websocket-server-params",
    since: "1.4.0",
    kind: "name",
    summary: "Renamed `WebsocketServerParams` to `SingleClientWebsocketServerParams`.",
    module: "pipecat.transports.websocket.server",
    from: "WebsocketServerParams",
    to: "SingleClientWebsocketServerParams",
  },
  {
    id: "1.4.0-websocket-server-callbacks",
    since: "1.4.0",
    kind: "name",
    summary: "Renamed `WebsocketServerCallbacks` to `SingleClientWebsocketServerCallbacks`.",
    module: "pipecat.transports.websocket.server",
    from: "WebsocketServerCallbacks",
    to: "SingleClientWebsocketServerCallbacks",
  },
  {
    id: "1.4.0-websocket-server-input-transport",
    since: "1.4.0",
    kind: "name",
    summary: "Renamed `WebsocketServerInputTransport` to " +
      "`SingleClientWebsocketServerInputTransport`.",
    module: "pipecat.transports.websocket.server",
    from: "WebsocketServerInputTransport",
    to: "SingleClientWebsocketServerInputTransport",
  },
  {
    id: "1.4.0-websocket-server-output-transport",
    since: "1.4.0",
    kind: "name",
    summary: "Renamed `WebsocketServerOutputTransport` to " +
      "`SingleClientWebsocketServerOutputTransport`.",
    module: "pipecat.transports.websocket.server",
    from: "WebsocketServerOutputTransport",
    to: "SingleClientWebsocketServerOutputTransport",
  },
  // CHANGELOG 1.4.0, "Changed"; src/pipecat/workers/llm/tool_decorator.py
  {
    id: "1.4.0-tool-timeout",
    since: "1.4.0",
    kind: "keyword",
    summary: "Renamed the `@tool` decorator's `timeout` argument to `timeout_secs`.",
    callee: { module: "pipecat.workers.llm.tool_decorator", name: "tool" },
    from: "timeout",
    to: "timeout_secs",
  },
  {
    id: "1.4.0-tool-timeout-llm",
    since: "1.4.0",
    kind: "keyword",
    summary: "Renamed the `@tool` decorator's `timeout` argument to `timeout_secs`.",
    callee: { module: "pipecat.workers.llm", name: "tool" },
    from: "timeout",
    to: "timeout_secs",
  },
  // CHANGELOG 1.4.0, "Deprecated"
  {
    id: "1.4.0-register-direct-function",
    since: "1.4.0",
    kind: "manual",
    summary: "`LLMService.register_direct_function` is deprecated since 1.4.0.",
    name: { module: "pipecat.services.llm_service", name: "LLMService" },
    member: "register_direct_function",
    action: "Advertise direct functions in `LLMContext(tools=[...])` or via an " +
      "`LLMSetToolsFrame` instead; handlers are registered automatically.",
  },
  {
    id: "1.4.0-unregister-direct-function",
    since: "1.4.0",
    kind: "manual",
    summary: "`LLMService.unregister_direct_function` is deprecated since 1.4.0.",
    name: { module: "pipecat.services.llm_service", name: "LLMService" },
    member: "unregister_direct_function",
    action: "Remove the function from the tools advertised in the `LLMContext` (or send an " +
      "`LLMSetToolsFrame`); handlers are unregistered automatically.",
  },
  {
    id: "1.4.0-llm-switcher-register-direct-function",
    since: "1.4.0",
    kind: "manual",
    summary: "`LLMSwitcher.register_direct_function` is deprecated since 1.4.0.",
    name: { module: "pipecat.pipeline.llm_switcher", name: "LLMSwitcher" },
    member: "register_direct_function",
    action: "Advertise direct functions in `LLMContext(tools=[...])` or via an " +
      "`LLMSetToolsFrame` instead; handlers are registered automatically.",
  },
  {
    id: "1.4.0-aic-vad-analyzer",
    since: "1.4.0",
    kind: "manual",
    summary: "`AICVADAnalyzer` is deprecated since 1.4.0. Use `AICQuailVADAnalyzer` instead.",
    name: { module: "pipecat.audio.vad.aic_vad", name: "AICVADAnalyzer" },
    action: "Use `AICQuailVADAnalyzer` (pipecat.audio.vad.aic_quail_vad), the standalone Quail " +
      "VAD model, instead.",
  },
  {
    id: "1.4.0-aic-filter-create-vad-analyzer",
    since: "1.4.0",
    kind: "manual",
    summary: "`AICFilter.create_vad_analyzer` is deprecated since 1.4.0. Use " +
      "`AICQuailVADAnalyzer` instead.",
    name: { module: "pipecat.audio.filters.aic_filter", name: "AICFilter" },
    member: "create_vad_analyzer",
    action: "Construct `AICQuailVADAnalyzer` (pipecat.audio.vad.aic_quail_vad) directly instead.",
  },
  {
    id: "1.4.0-whatsapp-connection-callback",
    since: "1.4.0",
    kind: "manual",
    summary: "The single-argument `connection_callback(connection)` signature for " +
      "`WhatsAppClient.handle_webhook_request` is deprecated.",
    name: { module: "pipecat.transports.whatsapp.client", name: "WhatsAppClient" },
    member: "handle_webhook_request",
    action: "Make the `connection_callback` accept `(connection, call: WhatsAppConnectCall)` " +
      "(pipecat.transports.whatsapp.api).",
  },
  {
    id: "1.4.0-mem0-api-version",
    since: "1.4.0",
    kind: "manual",
    summary: "Deprecated `Mem0MemoryService.InputParams.api_version`. It is no longer used.",
    name: { module: "pipecat.services.mem0.memory", name: "Mem0MemoryService.InputParams" },
    keyword: "api_version",
    action: "Remove `api_version`: no replacement, mem0 2.0.0 removed it from the client.",
  },
  {
    id: "1.4.0-tts-speak-frame-append-to-context",
    since: "1.4.0",
    kind: "manual",
    summary: "Deprecated passing `append_to_context=None` to `TTSSpeakFrame`; the default is " +
      "now `True`.",
    name: { module: "pipecat.frames.frames", name: "TTSSpeakFrame" },
    keyword: "append_to_context",
    action: "Pass `True` or `False` explicitly: `None` is coerced to `True` with a warning.",
  },
  {
    id: "1.4.0-bus-tts-speak-message-append-to-context",
    since: "1.4.0",
    kind: "manual",
    summary: "Deprecated passing `append_to_context=None` to `BusTTSSpeakMessage`.",
    name: { module: "pipecat.bus.messages", name: "BusTTSSpeakMessage" },
    keyword: "append_to_context",
    action: "Pass `True` or `False` explicitly: `None` is coerced to `True` with a warning.",
  },
  {
    id: "1.4.0-bot-output-transforms",
    since: "1.4.0",
    kind: "manual",
    summary: "Deprecated the 2-parameter `bot_output_transforms` signature `(text, agg_type) -> " +
      "str`.",
    name: { module: "pipecat.processors.frameworks.rtvi.observer", name: "RTVIObserverParams" },
    keyword: "bot_output_transforms",
    action: "Update each transform to the 4-parameter signature `(text, agg_type, " +
      "accumulated_text, remaining_text) -> BotOutputTransformResult`.",
  },
  {
    id: "1.4.0-bot-output-transforms-rtvi",
    since: "1.4.0",
    kind: "manual",
    summary: "Deprecated the 2-parameter `bot_output_transforms` signature `(text, agg_type) -> " +
      "str`.",
    name: { module: "pipecat.processors.frameworks.rtvi", name: "RTVIObserverParams" },
    keyword: "bot_output_transforms",
    action: "Update each transform to the 4-parameter signature `(text, agg_type, " +
      "accumulated_text, remaining_text) -> BotOutputTransformResult`.",
  },
  {
    id: "1.4.0-add-bot-output-transformer",
    since: "1.4.0",
    kind: "manual",
    summary: "Transforms using the 2-parameter signature `(text, agg_type) -> str` are " +
      "deprecated.",
    name: { module: "pipecat.processors.frameworks.rtvi.observer", name: "RTVIObserver" },
    member: "add_bot_output_transformer",
    action: "Update the transform to the 4-parameter signature `(text, agg_type, " +
      "accumulated_text, remaining_text) -> BotOutputTransformResult`.",
  },
  {
    id: "1.4.0-add-bot-output-transformer-rtvi",
    since: "1.4.0",
    kind: "manual",
    summary: "Transforms using the 2-parameter signature `(text, agg_type) -> str` are " +
      "deprecated.",
    name: { module: "pipecat.processors.frameworks.rtvi", name: "RTVIObserver" },
    member: "add_bot_output_transformer",
    action: "Update the transform to the 4-parameter signature `(text, agg_type, " +
      "accumulated_text, remaining_text) -> BotOutputTransformResult`.",
  },
  // src/pipecat/processors/frameworks/rtvi/processor.py and transports/base_input.py (1.4.0)
  {
    id: "1.4.0-rtvi-processor-transport",
    since: "1.4.0",
    kind: "manual",
    summary: "Passing 'transport' to RTVIProcessor is deprecated since 1.4.0 and is ignored.",
    name: { module: "pipecat.processors.frameworks.rtvi.processor", name: "RTVIProcessor" },
    keyword: "transport",
    action: "Remove `transport=`: no replacement. For client-ready audio gating set " +
      "`audio_in_stream_on_start=False` on the transport.",
  },
  {
    id: "1.4.0-rtvi-processor-transport-rtvi",
    since: "1.4.0",
    kind: "manual",
    summary: "Passing 'transport' to RTVIProcessor is deprecated since 1.4.0 and is ignored.",
    name: { module: "pipecat.processors.frameworks.rtvi", name: "RTVIProcessor" },
    keyword: "transport",
    action: "Remove `transport=`: no replacement. For client-ready audio gating set " +
      "`audio_in_stream_on_start=False` on the transport.",
  },
  {
    id: "1.4.0-start-audio-in-streaming",
    since: "1.4.0",
    kind: "manual",
    summary: "`BaseInputTransport.start_audio_in_streaming` is deprecated since 1.4.0.",
    name: { module: "pipecat.transports.base_input", name: "BaseInputTransport" },
    member: "start_audio_in_streaming",
    action: "Push an `InputTransportStartAudioStreamingFrame` downstream instead; subclasses " +
      "should override `_start_audio_in_streaming`.",
  },
  // CHANGELOG 1.4.0, "Changed": Smallest AI TTS for Waves v4.0.0 ("Breaking")
  {
    id: "1.4.0-smallest-lightning-v2",
    since: "1.4.0",
    kind: "manual",
    summary: "`SmallestTTSModel.LIGHTNING_V2` removed.",
    name: { module: "pipecat.services.smallest.tts", name: "SmallestTTSModel" },
    member: "LIGHTNING_V2",
    action: "Use `SmallestTTSModel.LIGHTNING_V3_1` or `SmallestTTSModel.LIGHTNING_V3_1_PRO` " +
      "(the default).",
  },
  {
    id: "1.4.0-smallest-consistency",
    since: "1.4.0",
    kind: "manual",
    summary: "Smallest TTS `consistency`, `similarity`, `enhancement` settings removed.",
    name: { module: "pipecat.services.smallest.tts", name: "SmallestTTSService.Settings" },
    keyword: "consistency",
    action: "Remove `consistency`: no replacement (it only applied to lightning-v2).",
  },
  {
    id: "1.4.0-smallest-similarity",
    since: "1.4.0",
    kind: "manual",
    summary: "Smallest TTS `consistency`, `similarity`, `enhancement` settings removed.",
    name: { module: "pipecat.services.smallest.tts", name: "SmallestTTSService.Settings" },
    keyword: "similarity",
    action: "Remove `similarity`: no replacement (it only applied to lightning-v2).",
  },
  {
    id: "1.4.0-smallest-enhancement",
    since: "1.4.0",
    kind: "manual",
    summary: "Smallest TTS `consistency`, `similarity`, `enhancement` settings removed.",
    name: { module: "pipecat.services.smallest.tts", name: "SmallestTTSService.Settings" },
    keyword: "enhancement",
    action: "Remove `enhancement`: no replacement (it only applied to lightning-v2).",
  },

  // ---------------------------------------------------------------------------------------------
  // 1.5.0: CHANGELOG "Deprecated" and "Removed"
  {
    id: "1.5.0-task-manager-params",
    since: "1.5.0",
    kind: "manual",
    summary: "`TaskManagerParams` is deprecated since 1.5.0. Use `TaskManager` instead.",
    name: { module: "pipecat.utils.asyncio.task_manager", name: "TaskManagerParams" },
    action: "Pass `loop` and `context` to the `TaskManager` constructor instead.",
  },
  {
    id: "1.5.0-task-manager-setup",
    since: "1.5.0",
    kind: "manual",
    summary: "`TaskManager.setup` is deprecated since 1.5.0. Use `TaskManager` instead.",
    name: { module: "pipecat.utils.asyncio.task_manager", name: "TaskManager" },
    member: "setup",
    action: "Pass `loop` and `context` to the `TaskManager` constructor instead.",
  },
  {
    id: "1.5.0-worker-runner-loop",
    since: "1.5.0",
    kind: "manual",
    summary: "Deprecated the `WorkerRunner` `loop` argument.",
    name: { module: "pipecat.workers.runner", name: "WorkerRunner" },
    keyword: "loop",
    action: "Pass `task_manager=TaskManager(loop=...)` (which owns its own loop) instead.",
  },
  {
    id: "1.5.0-worker-params-loop",
    since: "1.5.0",
    kind: "manual",
    summary: "Removed `WorkerParams.loop`.",
    name: { module: "pipecat.workers.base_worker", name: "WorkerParams" },
    keyword: "loop",
    action: "Pass a task manager via `WorkerParams(task_manager=...)` instead.",
  },
  {
    id: "1.5.0-aic-quail-speech-hold-duration",
    since: "1.5.0",
    kind: "manual",
    summary: "Deprecated the `speech_hold_duration` parameter of `AICQuailVADAnalyzer`; it is " +
      "ignored.",
    name: { module: "pipecat.audio.vad.aic_quail_vad", name: "AICQuailVADAnalyzer" },
    keyword: "speech_hold_duration",
    action: "Use `VADParams` (`start_secs`/`stop_secs`) instead.",
  },
  {
    id: "1.5.0-aic-quail-minimum-speech-duration",
    since: "1.5.0",
    kind: "manual",
    summary: "Deprecated the `minimum_speech_duration` parameter of `AICQuailVADAnalyzer`; it is " +
      "ignored.",
    name: { module: "pipecat.audio.vad.aic_quail_vad", name: "AICQuailVADAnalyzer" },
    keyword: "minimum_speech_duration",
    action: "Use `VADParams` (`start_secs`/`stop_secs`) instead.",
  },
  {
    id: "1.5.0-aic-quail-sensitivity",
    since: "1.5.0",
    kind: "manual",
    summary: "Deprecated the `sensitivity` parameter of `AICQuailVADAnalyzer`; it is ignored.",
    name: { module: "pipecat.audio.vad.aic_quail_vad", name: "AICQuailVADAnalyzer" },
    keyword: "sensitivity",
    action: "Use `VADParams` (`confidence`) instead.",
  },
  {
    id: "1.5.0-realtime-service-metadata-frame",
    since: "1.5.0",
    kind: "manual",
    summary: "Removed the internal `RealtimeServiceMetadataFrame`.",
    name: { module: "pipecat.frames.frames", name: "RealtimeServiceMetadataFrame" },
    action: "Switch to `LLMServiceMetadataFrame` (carrying `is_realtime_service`); it has no " +
      "`emits_user_turn_frames` field.",
  },
  {
    id: "1.5.0-realtime-service-info",
    since: "1.5.0",
    kind: "manual",
    summary: "Removed the internal `RealtimeServiceInfo`.",
    name: { module: "pipecat.services.llm_service", name: "RealtimeServiceInfo" },
    action: "Switch to `LLMServiceMetadataFrame` (pipecat.frames.frames), which carries " +
      "`is_realtime_service`.",
  },
  // CHANGELOG 1.5.0, "Added": Pipecat Flows is now part of `pipecat-ai` (`pipecat.flows`).
  {
    id: "1.5.0-pipecat-flows-module",
    since: "1.5.0",
    kind: "module",
    summary: "Code importing from `pipecat_flows` should switch to `pipecat.flows`.",
    from: "pipecat_flows",
    to: "pipecat.flows",
  },
  // src/pipecat/flows/{manager,types}.py (deprecated since 1.5.0)
  {
    id: "1.5.0-flow-manager-task",
    since: "1.5.0",
    kind: "keyword",
    summary: "The 'task' parameter of `FlowManager` is deprecated since 1.5.0. Use 'worker'.",
    callee: { module: "pipecat.flows", name: "FlowManager" },
    from: "task",
    to: "worker",
  },
  {
    id: "1.5.0-flow-manager-task-manager-module",
    since: "1.5.0",
    kind: "keyword",
    summary: "The 'task' parameter of `FlowManager` is deprecated since 1.5.0. Use 'worker'.",
    callee: { module: "pipecat.flows.manager", name: "FlowManager" },
    from: "task",
    to: "worker",
  },
  {
    id: "1.5.0-flow-manager-task-property",
    since: "1.5.0",
    kind: "manual",
    summary: "`FlowManager.task` is deprecated since 1.5.0. Use `FlowManager.worker` instead.",
    name: { module: "pipecat.flows", name: "FlowManager" },
    member: "task",
    action: "Read `flow_manager.worker` instead.",
  },
  {
    id: "1.5.0-flows-direct-function",
    since: "1.5.0",
    kind: "name",
    summary: "`flows_direct_function` is deprecated since 1.5.0. Use `flows_tool_options` " +
      "instead.",
    module: "pipecat.flows",
    from: "flows_direct_function",
    to: "flows_tool_options",
  },
  {
    id: "1.5.0-flows-direct-function-types",
    since: "1.5.0",
    kind: "name",
    summary: "`flows_direct_function` is deprecated since 1.5.0. Use `flows_tool_options` " +
      "instead.",
    module: "pipecat.flows.types",
    from: "flows_direct_function",
    to: "flows_tool_options",
  },
  {
    id: "1.5.0-flow-result",
    since: "1.5.0",
    kind: "manual",
    summary: "`FlowResult` is deprecated since 1.5.0. No replacement.",
    name: { module: "pipecat.flows", name: "FlowResult" },
    action: "Define your own `TypedDict` or return any JSON-serializable value.",
  },
  {
    id: "1.5.0-reset-with-summary",
    since: "1.5.0",
    kind: "manual",
    summary: "`ContextStrategy.RESET_WITH_SUMMARY` is deprecated since 1.5.0.",
    name: { module: "pipecat.flows", name: "ContextStrategy" },
    member: "RESET_WITH_SUMMARY",
    action: "Use `LLMSummarizeContextFrame` instead: push it in a pre-action to trigger " +
      "on-demand summarization during a node transition.",
  },
  {
    id: "1.5.0-context-strategy-summary-prompt",
    since: "1.5.0",
    kind: "manual",
    summary: "`ContextStrategyConfig.summary_prompt` is deprecated since 1.5.0.",
    name: { module: "pipecat.flows", name: "ContextStrategyConfig" },
    keyword: "summary_prompt",
    action: "Use `LLMContextSummaryConfig.summarization_prompt` instead.",
  },
  {
    id: "1.5.0-node-config-role-messages",
    since: "1.5.0",
    kind: "manual",
    summary: "`NodeConfig.role_messages` is deprecated since 1.5.0.",
    name: { module: "pipecat.flows", name: "NodeConfig" },
    keyword: "role_messages",
    action: "Use `role_message` (str) instead.",
  },
  {
    id: "1.5.0-legacy-function-handler",
    since: "1.5.0",
    kind: "manual",
    summary: "Single-argument (legacy) function handlers are deprecated.",
    name: { module: "pipecat.flows", name: "LegacyFunctionHandler" },
    action: "Use `FlowFunctionHandler` (`(args, flow_manager)`) instead.",
  },
  {
    id: "1.5.0-zero-arg-function-handler",
    since: "1.5.0",
    kind: "manual",
    summary: "Zero-argument function handlers are deprecated.",
    name: { module: "pipecat.flows", name: "ZeroArgFunctionHandler" },
    action: "Use `FlowFunctionHandler` (`(args, flow_manager)`) instead.",
  },
  {
    id: "1.5.0-legacy-action-handler",
    since: "1.5.0",
    kind: "manual",
    summary: "Single-argument (legacy) action handlers are deprecated.",
    name: { module: "pipecat.flows.types", name: "LegacyActionHandler" },
    action: "Use `FlowActionHandler` (`(action, flow_manager)`) instead.",
  },

  // ---------------------------------------------------------------------------------------------
  // 1.6.0: CHANGELOG "Deprecated"
  {
    id: "1.6.0-user-turn-start-strategy-reset",
    since: "1.6.0",
    kind: "manual",
    summary: "Deprecated `reset()` on `BaseUserTurnStartStrategy`.",
    name: { module: "pipecat.turns.user_start", name: "BaseUserTurnStartStrategy" },
    member: "reset",
    action: "Override `handle_user_turn_started` instead.",
  },
  {
    id: "1.6.0-user-turn-start-strategy-reset-base",
    since: "1.6.0",
    kind: "manual",
    summary: "Deprecated `reset()` on `BaseUserTurnStartStrategy`.",
    name: {
      module: "pipecat.turns.user_start.base_user_turn_start_strategy",
      name: "BaseUserTurnStartStrategy",
    },
    member: "reset",
    action: "Override `handle_user_turn_started` instead.",
  },
  {
    id: "1.6.0-user-turn-stop-strategy-reset",
    since: "1.6.0",
    kind: "manual",
    summary: "Deprecated `reset()` on `BaseUserTurnStopStrategy`.",
    name: { module: "pipecat.turns.user_stop", name: "BaseUserTurnStopStrategy" },
    member: "reset",
    action: "Override `handle_user_turn_started` and `handle_user_turn_stopped` instead.",
  },
  {
    id: "1.6.0-user-turn-stop-strategy-reset-base",
    since: "1.6.0",
    kind: "manual",
    summary: "Deprecated `reset()` on `BaseUserTurnStopStrategy`.",
    name: {
      module: "pipecat.turns.user_stop.base_user_turn_stop_strategy",
      name: "BaseUserTurnStopStrategy",
    },
    member: "reset",
    action: "Override `handle_user_turn_started` and `handle_user_turn_stopped` instead.",
  },
  // The `webrtc` extra is not renamed: `webrtc-video` is `webrtc` plus, from 2.0.0, OpenCV.
  {
    id: "1.6.0-webrtc-video-extra",
    since: "1.6.0",
    kind: "manual",
    summary: "Deprecated the `webrtc` extra's dependency on OpenCV.",
    name: { module: "pipecat.transports.smallwebrtc.transport", name: "SmallWebRTCTransport" },
    action: "If this transport carries video, install `pipecat-ai[webrtc-video]` instead of " +
      "`pipecat-ai[webrtc]`.",
  },
  {
    id: "1.6.0-pronunciation-dictionary-locator",
    since: "1.6.0",
    kind: "manual",
    summary: "`PronunciationDictionaryLocator` is deprecated since 1.6.0.",
    name: { module: "pipecat.services.elevenlabs.tts", name: "PronunciationDictionaryLocator" },
    action: "Use the `text_transforms` parameter with `replace_text` instead.",
  },
  {
    id: "1.6.0-elevenlabs-pronunciation-dictionary-locators",
    since: "1.6.0",
    kind: "manual",
    summary: "`pronunciation_dictionary_locators` is deprecated since 1.6.0.",
    name: { module: "pipecat.services.elevenlabs.tts", name: "ElevenLabsTTSService" },
    keyword: "pronunciation_dictionary_locators",
    action: "Use the `text_transforms` parameter with `replace_text` instead.",
  },
  {
    id: "1.6.0-elevenlabs-http-pronunciation-dictionary-locators",
    since: "1.6.0",
    kind: "manual",
    summary: "`pronunciation_dictionary_locators` is deprecated since 1.6.0.",
    name: { module: "pipecat.services.elevenlabs.tts", name: "ElevenLabsHttpTTSService" },
    keyword: "pronunciation_dictionary_locators",
    action: "Use the `text_transforms` parameter with `replace_text` instead.",
  },

  // ---------------------------------------------------------------------------------------------
  // 1.7.0: CHANGELOG "Deprecated"
  {
    id: "1.7.0-xtts-service",
    since: "1.7.0",
    kind: "manual",
    summary: "`XTTSService` is deprecated since 1.7.0. No replacement.",
    name: { module: "pipecat.services.xtts.tts", name: "XTTSService" },
    action: "`KokoroTTSService` and `PiperTTSService` are the maintained local TTS services.",
  },
  {
    id: "1.7.0-llm-settings-filter-incomplete-user-turns",
    since: "1.7.0",
    kind: "manual",
    summary: "Deprecated `LLMSettings.filter_incomplete_user_turns`; it never took effect there.",
    name: { module: "pipecat.services.settings", name: "LLMSettings" },
    keyword: "filter_incomplete_user_turns",
    action: "Pass `user_turn_strategies=FilterIncompleteUserTurnStrategies()` to " +
      "`LLMUserAggregatorParams` instead.",
  },
  {
    id: "1.7.0-llm-settings-user-turn-completion-config",
    since: "1.7.0",
    kind: "manual",
    summary: "Deprecated `LLMSettings.user_turn_completion_config`; it never took effect there.",
    name: { module: "pipecat.services.settings", name: "LLMSettings" },
    keyword: "user_turn_completion_config",
    action: "Pass the config to `FilterIncompleteUserTurnStrategies(config=...)` instead.",
  },
];

/** The whole catalog: each service's settings (generated from Pipecat's source), then the rest. */
export const CHANGES: readonly Change[] = [...SETTINGS_CHANGES, ...CATALOGUED];
