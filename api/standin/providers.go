package standin

// Providers are the rules of each recipe's provider, by recipe name, as
// their public docs state them (read in 2026):
//
//   - Anthropic (docs.anthropic.com, and Bedrock's adaptive-thinking page):
//     x-api-key, anthropic-version required; Claude Opus 4.7 and later take
//     only thinking {type: adaptive} with output_config.effort (a budget is
//     a 400) and refuse temperature, top_p and top_k; GET /v1/models pages
//     by has_more and last_id.
//   - Ollama (docs.ollama.com/api/anthropic-compatibility): base
//     http://localhost:11434 without /v1, any credential ignored;
//     thinking with a budget; /v1/models is the OpenAI-style list.
//   - llama.cpp's server, vLLM and LM Studio: /v1/messages at the server's
//     root, no credential unless started with one, the OpenAI-style list.
//   - OpenRouter (openrouter.ai/docs, Claude Code guide): base
//     https://openrouter.ai/api without /v1, the key as a bearer token
//     (ANTHROPIC_AUTH_TOKEN; x-api-key is taken as an Anthropic key).
//   - DeepSeek (api-docs.deepseek.com/guides/anthropic_api): base
//     https://api.deepseek.com/anthropic, x-api-key, anthropic-version
//     ignored; no models list there.
//   - Kimi (platform.moonshot.ai): base https://api.moonshot.ai/anthropic,
//     ANTHROPIC_AUTH_TOKEN (bearer).
//   - GLM (docs.z.ai): base https://api.z.ai/api/anthropic, bearer.
//   - DashScope (Alibaba Cloud Model Studio): base
//     https://dashscope-intl.aliyuncs.com/apps/anthropic, bearer or key.
var Providers = map[string]Rules{
	"anthropic": {Name: "anthropic", Auth: AuthAPIKey, Version: "anthropic-version", Thinking: ThinkAdaptive,
		Refuse: []string{"temperature", "top_p", "top_k"}, Models: ModelsAnthropic, ModelIDs: []string{"claude-opus-4-7", "claude-sonnet-4-6", "claude-haiku-4-5"}},
	"ollama":     {Name: "ollama", Auth: AuthNone, Thinking: ThinkBudget, Models: ModelsOpenAI, ModelIDs: []string{"qwen3-coder", "gpt-oss:20b"}},
	"llamacpp":   {Name: "llamacpp", Auth: AuthNone, Thinking: ThinkBudget, Models: ModelsOpenAI},
	"vllm":       {Name: "vllm", Auth: AuthNone, Thinking: ThinkBudget, Models: ModelsOpenAI, ModelIDs: []string{"Qwen/Qwen3-8B"}},
	"lmstudio":   {Name: "lmstudio", Auth: AuthNone, Thinking: ThinkBudget, Models: ModelsOpenAI, ModelIDs: []string{"openai/gpt-oss-20b"}},
	"openrouter": {Name: "openrouter", BasePath: "/api", Auth: AuthBearer, Thinking: ThinkEither, Models: ModelsOpenAI, ModelIDs: []string{"anthropic/claude-sonnet-4.6"}},
	"deepseek":   {Name: "deepseek", BasePath: "/anthropic", Auth: AuthAPIKey, Thinking: ThinkEither, ModelIDs: []string{"deepseek-v4-pro", "deepseek-flash"}},
	"kimi":       {Name: "kimi", BasePath: "/anthropic", Auth: AuthBearer, Thinking: ThinkBudget, ModelIDs: []string{"kimi-k2.6"}},
	"glm":        {Name: "glm", BasePath: "/api/anthropic", Auth: AuthBearer, Thinking: ThinkBudget, ModelIDs: []string{"glm-5.1"}},
	"dashscope":  {Name: "dashscope", BasePath: "/apps/anthropic", Auth: AuthEither, Thinking: ThinkBudget, ModelIDs: []string{"qwen3-max"}},
}
